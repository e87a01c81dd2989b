package dev.berth.manager.server;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where operator actions on a worker cluster (cordon, drain, uncordon) are recorded as core/v1
 * Events: involvedObject the MultiKueueCluster, type Normal, the given reason (Conditions.Reasons
 * CORDONED, DRAINING, UNCORDONED) and message. The default logs them; the events store plugs in here.
 */
@FunctionalInterface
public interface ClusterActionEvents {
    void record(String cluster, String reason, String message);

    ClusterActionEvents LOGGING = new ClusterActionEvents() {
        private final Logger log = LoggerFactory.getLogger(ClusterActionEvents.class);

        @Override
        public void record(String cluster, String reason, String message) {
            log.atInfo().addKeyValue("cluster", cluster).addKeyValue("reason", reason).addKeyValue("kind", "MultiKueueCluster")
                    .log("cluster action: " + message);
        }
    };
}
