package dev.berth.manager.objects;

import dev.berth.protocol.KueueApi;

import java.util.List;

/**
 * The fields of each Kueue kind that exist in only one of kueue.x-k8s.io/v1beta1 and v1beta2 (after
 * Kueue's apis/kueue/v1beta1 conversion functions), as JSON pointers; {@code *} is every array index.
 * Renamed and restructured fields are not here: {@link ApiVersionConverter} maps those.
 */
final class V1beta1Fields {
    private V1beta1Fields() {}

    /** v1beta2 fields v1beta1 cannot express; a v1beta1 reader gets them in an annotation. */
    static List<String> onlyInV1beta2(String kind) {
        return switch (kind) {
            case KueueApi.CLUSTER_QUEUE -> List.of("/spec/concurrentAdmissionPolicy");
            case KueueApi.MULTIKUEUE_CONFIG -> List.of("/spec/quotaManagement");
            // what is left of clusterSource once kubeConfig and clusterProfileRef moved out (an empty one)
            case KueueApi.MULTIKUEUE_CLUSTER -> List.of("/spec/clusterSource");
            case KueueApi.WORKLOAD -> List.of(
                    // a reference to a kind v1beta1's priorityClassSource cannot name (left after the mapping)
                    "/spec/priorityClassRef",
                    "/spec/preemptionGates",
                    "/spec/podSets/*/topologyRequest/podsetSliceRequiredTopologyConstraints",
                    "/status/preemptionGates",
                    // v1beta2 encodes topology assignments as slices, v1beta1 as domains; Berth carries them
                    "/status/admission/podSetAssignments/*/topologyAssignment");
            default -> List.of();
        };
    }

    /** v1beta1 spec fields v1beta2 dropped; a stored object keeps them in an annotation for v1beta1 readers. */
    static List<String> onlyInV1beta1Spec(String kind) {
        return switch (kind) {
            case KueueApi.ADMISSION_CHECK -> List.of("/spec/retryDelayMinutes");
            default -> List.of();
        };
    }

    /**
     * v1beta1 status fields v1beta2 dropped. Status is Berth's to write (always as v1beta2), so these
     * are only ever sent by a client writing status through v1beta1; they are dropped, as Kueue drops them.
     */
    static List<String> onlyInV1beta1Status(String kind) {
        return switch (kind) {
            case KueueApi.CLUSTER_QUEUE -> List.of("/status/pendingWorkloadsStatus",
                    "/status/fairSharing/admissionFairSharingStatus");
            case KueueApi.COHORT -> List.of("/status/fairSharing/admissionFairSharingStatus");
            case KueueApi.LOCAL_QUEUE -> List.of("/status/flavors");
            case KueueApi.WORKLOAD -> List.of("/status/admission/podSetAssignments/*/topologyAssignment");
            default -> List.of();
        };
    }
}
