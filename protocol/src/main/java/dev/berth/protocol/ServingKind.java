package dev.berth.protocol;

import java.util.List;
import java.util.Optional;

/**
 * A serving kind: an object that keeps {@code replicas} pods running and never finishes (apps/v1
 * Deployment and StatefulSet, LeaderWorkerSet). Kueue admits each as long-running: its Workload stays
 * admitted until the object is deleted or scaled to zero. None has a suspend switch; on the manager no
 * controller runs it, so it waits unrun until admitted, and the worker's copy is created when dispatched.
 *
 * @param framework Kueue's integrations.frameworks name
 * @param shortNames kubectl's short names (deploy, sts, lws)
 */
public record ServingKind(String group, String version, String kind, String plural, String singular,
                          String framework, List<String> shortNames) {
    public static final ServingKind DEPLOYMENT = new ServingKind("apps", "v1", "Deployment", "deployments", "deployment",
            "deployment", List.of("deploy"));
    public static final ServingKind STATEFUL_SET = new ServingKind("apps", "v1", "StatefulSet", "statefulsets", "statefulset",
            "statefulset", List.of("sts"));
    public static final ServingKind LEADER_WORKER_SET = new ServingKind("leaderworkerset.x-k8s.io", "v1", "LeaderWorkerSet",
            "leaderworkersets", "leaderworkerset", "leaderworkerset.x-k8s.io/leaderworkerset", List.of("lws"));
    public static final List<ServingKind> ALL = List.of(DEPLOYMENT, STATEFUL_SET, LEADER_WORKER_SET);

    /** Labels the LeaderWorkerSet controller puts on every pod of a group. */
    public static final String LWS_NAME_LABEL = "leaderworkerset.sigs.k8s.io/name";
    public static final String LWS_GROUP_INDEX_LABEL = "leaderworkerset.sigs.k8s.io/group-index";
    public static final String LWS_WORKER_INDEX_LABEL = "leaderworkerset.sigs.k8s.io/worker-index";
    /** Labels the StatefulSet controller puts on its pods. */
    public static final String STS_POD_NAME_LABEL = "statefulset.kubernetes.io/pod-name";
    public static final String POD_INDEX_LABEL = "apps.kubernetes.io/pod-index";
    public static final String POD_TEMPLATE_HASH_LABEL = "pod-template-hash";

    /** Kueue's pod set names for a LeaderWorkerSet (pkg/controller/jobs/leaderworkerset). */
    public static final String LEADER_POD_SET = "leader";
    public static final String WORKER_POD_SET = "worker";
    public static final String MAIN_POD_SET = "main";

    public ServingKind {
        shortNames = List.copyOf(shortNames);
    }

    public String apiVersion() {
        return group + "/" + version;
    }

    /** The served serving kind of this kind name, if any. */
    public static Optional<ServingKind> of(String kind) {
        return ALL.stream().filter(k -> k.kind.equals(kind)).findFirst();
    }
}
