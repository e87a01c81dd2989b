package dev.berth.manager.testing;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Builders of the MultiKueue objects a dispatching end-to-end test sets up: the MultiKueueConfig listing the
 * worker clusters, the AdmissionCheck that names it, and each MultiKueueCluster with its kubeconfig source.
 * (For a cluster the test plays, {@link MockWorkerCluster#connect} creates the MultiKueueCluster.)
 */
public final class MultiKueueObjects {
    public static final String CONTROLLER = "kueue.x-k8s.io/multikueue";
    private static final String KUEUE_API = "kueue.x-k8s.io/v1beta2";

    private MultiKueueObjects() {}

    public static KueueObjects.KubeObject multiKueueConfig(String name, String... clusters) {
        ObjectNode config = KueueObjects.object(KUEUE_API, "MultiKueueConfig", name);
        ArrayNode list = config.putObject("spec").putArray("clusters");
        for (String cluster : clusters) list.add(cluster);
        return KueueObjects.ready(config, ManagerClient.KUEUE + "/multikueueconfigs");
    }

    /** The AdmissionCheck of the MultiKueue controller whose parameters are the named MultiKueueConfig. */
    public static KueueObjects.KubeObject multiKueueCheck(String name, String configName) {
        ObjectNode check = KueueObjects.object(KUEUE_API, "AdmissionCheck", name);
        check.putObject("spec").put("controllerName", CONTROLLER).putObject("parameters")
                .put("apiGroup", "kueue.x-k8s.io").put("kind", "MultiKueueConfig").put("name", configName);
        return KueueObjects.ready(check, ManagerClient.KUEUE + "/admissionchecks");
    }

    public static MultiKueueClusterBuilder multiKueueCluster(String name) {
        return new MultiKueueClusterBuilder(name);
    }

    /** A MultiKueueCluster; its kubeconfig is a file path or a Secret in kueue-system. */
    public static final class MultiKueueClusterBuilder implements KueueObjects.KubeObject {
        private final ObjectNode object;

        MultiKueueClusterBuilder(String name) {
            object = KueueObjects.object(KUEUE_API, "MultiKueueCluster", name);
        }

        public MultiKueueClusterBuilder kubeconfigPath(String path) {
            kubeConfig().put("locationType", "Path").put("location", path);
            return this;
        }

        public MultiKueueClusterBuilder kubeconfigSecret(String secretName) {
            kubeConfig().put("location", secretName);
            return this;
        }

        private ObjectNode kubeConfig() {
            return object.putObject("spec").putObject("clusterSource").putObject("kubeConfig");
        }

        @Override
        public ObjectNode json() {
            return object.deepCopy();
        }

        @Override
        public String collectionPath() {
            return ManagerClient.KUEUE + "/multikueueclusters";
        }
    }
}
