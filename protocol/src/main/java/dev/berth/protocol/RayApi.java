package dev.berth.protocol;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * KubeRay's {@code ray.io/v1} kinds Berth serves (RayJob, RayCluster), with the names Kueue and KubeRay
 * use for them: Kueue's pod sets ({@code head}, one per worker group named by its groupName in lower case,
 * and a RayJob's {@code submitter}), and the labels KubeRay puts on a cluster's pods.
 */
public final class RayApi {
    public static final String GROUP = "ray.io";
    public static final String VERSION = "v1";
    public static final String API_VERSION = GROUP + "/" + VERSION;
    public static final String RAY_JOB = "RayJob";
    public static final String RAY_CLUSTER = "RayCluster";

    /** Kueue's pod set names (pkg/controller/jobs/rayjob: headGroupPodSetName, submitterJobPodSetName). */
    public static final String HEAD_POD_SET = "head";
    public static final String SUBMITTER_POD_SET = "submitter";
    /** RayJob submission modes; K8sJobMode (the default) runs the entrypoint in a submitter Job. */
    public static final String K8S_JOB_MODE = "K8sJobMode";
    public static final String SIDECAR_MODE = "SidecarMode";
    public static final List<String> SUBMISSION_MODES = List.of(K8S_JOB_MODE, "HTTPMode", "InteractiveMode", SIDECAR_MODE);

    /** Labels KubeRay puts on every Ray pod. */
    public static final String CLUSTER_LABEL = "ray.io/cluster";
    public static final String NODE_TYPE_LABEL = "ray.io/node-type";
    public static final String GROUP_LABEL = "ray.io/group";
    public static final String IS_RAY_NODE_LABEL = "ray.io/is-ray-node";
    public static final String ORIGINATED_FROM_CRD_LABEL = "ray.io/originated-from-crd";
    public static final String HEAD_GROUP = "headgroup";

    /** One of the served kinds. */
    public record Kind(String kind, String plural, String singular, String framework) {
        public String apiVersion() {
            return API_VERSION;
        }

        public String group() {
            return GROUP;
        }

        public String version() {
            return VERSION;
        }
    }

    public static final Kind RAY_JOB_KIND = new Kind(RAY_JOB, "rayjobs", "rayjob", "ray.io/rayjob");
    public static final Kind RAY_CLUSTER_KIND = new Kind(RAY_CLUSTER, "rayclusters", "raycluster", "ray.io/raycluster");
    public static final List<Kind> ALL = List.of(RAY_JOB_KIND, RAY_CLUSTER_KIND);

    private RayApi() {}

    /** The served Ray kind of this name, if any. */
    public static Optional<Kind> of(String kind) {
        return ALL.stream().filter(k -> k.kind().equals(kind)).findFirst();
    }

    /** A worker group's pod set name: its groupName in lower case (Kueue's NewPodSetReference). */
    public static String workerPodSetName(String groupName) {
        return groupName.toLowerCase(Locale.ROOT);
    }
}
