package dev.berth.virtualcluster;

import dev.berth.protocol.KubeflowJobKind;
import dev.berth.protocol.Labels;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One line of {@code pod-lifetimes.jsonl}: a simulated pod started or ended. */
public record PodLifetimeEvent(
    String cluster, String namespace, String pod, String uid, String node,
    Map<String, String> labels, String event, String phase, long time) {

    public static final String STARTED = "started";
    public static final String ENDED = "ended";
    /** Labels copied from the pod into the record. */
    public static final List<String> LABELS_OF_INTEREST = List.of(
        Labels.REMOTE_WORKLOAD, Labels.ATTEMPT_ID, Labels.WORKLOAD_NAME, "job-name",
        KubeflowJobKind.JOB_NAME_LABEL, KubeflowJobKind.REPLICA_TYPE_LABEL, KubeflowJobKind.REPLICA_INDEX_LABEL,
        KubeflowJobKind.JOB_ROLE_LABEL,
        dev.berth.protocol.RayApi.CLUSTER_LABEL, dev.berth.protocol.RayApi.NODE_TYPE_LABEL, dev.berth.protocol.RayApi.GROUP_LABEL,
        dev.berth.protocol.ServingKind.LWS_GROUP_INDEX_LABEL, dev.berth.protocol.ServingKind.LWS_WORKER_INDEX_LABEL,
        dev.berth.protocol.ServingKind.POD_INDEX_LABEL,
        dev.berth.protocol.AppWrapperApi.APPWRAPPER_LABEL);

    public PodLifetimeEvent {
        labels = Map.copyOf(labels);
    }

    static Map<String, String> labelsOfInterest(Map<String, String> podLabels) {
        Map<String, String> result = new LinkedHashMap<>();
        if (podLabels != null) {
            for (String key : LABELS_OF_INTEREST) {
                if (podLabels.containsKey(key)) {
                    result.put(key, podLabels.get(key));
                }
            }
        }
        return result;
    }
}
