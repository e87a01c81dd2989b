package dev.berth.manager.api;

import dev.berth.protocol.KueueApi;
import dev.berth.protocol.RbacApi;
import java.util.Map;
import java.util.Optional;

/**
 * The strategic-merge-patch shapes of the built-in kinds Berth serves, taken from the
 * {@code patchStrategy}/{@code patchMergeKey} tags of Kubernetes' Go types (k8s.io/api core/v1,
 * batch/v1, apps/v1; ObjectMeta from apimachinery). Lists without a tag (tolerations, args, command, envFrom,
 * RBAC rules and subjects, container statuses, ...) are atomic and replaced. Custom resources have no
 * entry: kube-apiserver refuses a strategic merge patch on them (415), and so does Berth.
 */
final class BuiltInPatchShapes {
    private BuiltInPatchShapes() {}

    static final PatchShape OBJECT_META = PatchShape.of()
            .scalarSet("finalizers")
            .mergeList("ownerReferences", "uid");

    /** core/v1 Container and EphemeralContainerCommon. */
    static final PatchShape CONTAINER = PatchShape.of()
            .mergeList("ports", "containerPort")
            .mergeList("env", "name")
            .mergeList("volumeMounts", "mountPath")
            .mergeList("volumeDevices", "devicePath");

    static final PatchShape POD_SPEC = PatchShape.of()
            .mergeList("volumes", "name")
            .mergeList("initContainers", "name", CONTAINER)
            .mergeList("containers", "name", CONTAINER)
            .mergeList("ephemeralContainers", "name", CONTAINER)
            .mergeList("imagePullSecrets", "name")
            .mergeList("hostAliases", "ip")
            .mergeList("topologySpreadConstraints", "topologyKey")
            .mergeList("schedulingGates", "name")
            .mergeList("resourceClaims", "name");

    static final PatchShape POD_STATUS = PatchShape.of()
            .mergeList("conditions", "type")
            .mergeList("hostIPs", "ip")
            .mergeList("podIPs", "ip")
            .mergeList("resourceClaimStatuses", "name");

    static final PatchShape POD_TEMPLATE = PatchShape.of()
            .object("metadata", OBJECT_META)
            .object("spec", POD_SPEC);

    /** Conditions merged by type: JobStatus, NamespaceStatus. */
    private static final PatchShape CONDITIONS_BY_TYPE = PatchShape.of().mergeList("conditions", "type");

    static final PatchShape POD = PatchShape.of()
            .object("metadata", OBJECT_META)
            .object("spec", POD_SPEC)
            .object("status", POD_STATUS);

    static final PatchShape JOB = PatchShape.of()
            .object("metadata", OBJECT_META)
            .object("spec", PatchShape.of().object("template", POD_TEMPLATE))
            .object("status", CONDITIONS_BY_TYPE);

    /** apps/v1 Deployment and StatefulSet: their pod template; status conditions by type (DeploymentStatus, StatefulSetStatus). */
    static final PatchShape APPS_WORKLOAD = PatchShape.of()
            .object("metadata", OBJECT_META)
            .object("spec", PatchShape.of().object("template", POD_TEMPLATE))
            .object("status", CONDITIONS_BY_TYPE);

    static final PatchShape NAMESPACE = PatchShape.of()
            .object("metadata", OBJECT_META)
            .object("status", CONDITIONS_BY_TYPE);

    /** Kinds whose only merging lists are in their metadata. */
    static final PatchShape METADATA_ONLY = PatchShape.of().object("metadata", OBJECT_META);

    private static final Map<String, PatchShape> BY_KIND = Map.ofEntries(
            Map.entry(key(KueueApi.BATCH_GROUP, KueueApi.JOB), JOB),
            Map.entry(key("", KueueApi.POD), POD),
            Map.entry(key("apps", "Deployment"), APPS_WORKLOAD),
            Map.entry(key("apps", "StatefulSet"), APPS_WORKLOAD),
            Map.entry(key("", KueueApi.NAMESPACE), NAMESPACE),
            Map.entry(key("", KueueApi.SECRET), METADATA_ONLY),
            Map.entry(key("", dev.berth.protocol.Events.KIND), METADATA_ONLY),
            Map.entry(key(KueueApi.SCHEDULING_GROUP, KueueApi.PRIORITY_CLASS), METADATA_ONLY),
            Map.entry(key(RbacApi.GROUP, RbacApi.ROLE), METADATA_ONLY),
            Map.entry(key(RbacApi.GROUP, RbacApi.CLUSTER_ROLE), METADATA_ONLY),
            Map.entry(key(RbacApi.GROUP, RbacApi.ROLE_BINDING), METADATA_ONLY),
            Map.entry(key(RbacApi.GROUP, RbacApi.CLUSTER_ROLE_BINDING), METADATA_ONLY));

    /** The shape of a built-in kind; empty for custom resources, which take no strategic merge patch. */
    static Optional<PatchShape> of(ResourceType type) {
        return Optional.ofNullable(BY_KIND.get(key(type.group(), type.kind())));
    }

    private static String key(String group, String kind) {
        return group + "/" + kind;
    }
}
