package dev.berth.manager.clusters;

/**
 * What the MultiKueueCluster hooks ask of the worker clusters: connect or disconnect one from its kubeconfig,
 * the operator's marks, and the flavor catalogue the agents read. {@link WorkerClusters} is the one real
 * implementation; {@link #NONE} serves a registry that never dispatches (a follower's read-only API).
 */
public interface ClusterConnections {
    ClusterConnections NONE = new ClusterConnections() {
        @Override
        public void connect(String name, KubeconfigSource source) {
        }

        @Override
        public void disconnect(String name) {
        }

        @Override
        public void setOperatorMarks(String name, boolean cordoned, boolean draining) {
        }

        @Override
        public boolean isCordoned(String name) {
            return false;
        }

        @Override
        public boolean isDraining(String name) {
            return false;
        }

        @Override
        public void flavorsChanged(String flavorsJson) {
        }
    };

    /** (Re)connects a cluster from its kubeconfig; the same source as the current connection changes nothing. */
    void connect(String name, KubeconfigSource source);

    void disconnect(String name);

    /** The operator's cordon and drain marks (annotations of the MultiKueueCluster). */
    void setOperatorMarks(String name, boolean cordoned, boolean draining);

    boolean isCordoned(String name);

    boolean isDraining(String name);

    /** The ResourceFlavors the agents read, as a JSON array. */
    void flavorsChanged(String flavorsJson);
}
