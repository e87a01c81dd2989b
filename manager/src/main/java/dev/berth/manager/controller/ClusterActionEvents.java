package dev.berth.manager.controller;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where operator actions on a worker cluster (cordon, drain, uncordon) and its loss are recorded as
 * core/v1 Events: involvedObject the MultiKueueCluster, the given reason (Conditions.Reasons
 * CORDONED, DRAINING, UNCORDONED; CLUSTER_LOST as a Warning) and message. BerthManager records them
 * in its events store ({@link StoredClusterActionEvents}); {@link #LOGGING} only logs them.
 */
@FunctionalInterface
public interface ClusterActionEvents {
    /** A Normal event: an operator action. */
    void record(String cluster, String reason, String message);

    /** A Warning event, such as ClusterLost; by default recorded like any other. */
    default void warning(String cluster, String reason, String message) {
        record(cluster, reason, message);
    }

    ClusterActionEvents LOGGING = new ClusterActionEvents() {
        private final Logger log = LoggerFactory.getLogger(ClusterActionEvents.class);

        @Override
        public void record(String cluster, String reason, String message) {
            log.atInfo().addKeyValue("cluster", cluster).addKeyValue("reason", reason).addKeyValue("kind", "MultiKueueCluster")
                    .log("cluster action: " + message);
        }
    };
}
