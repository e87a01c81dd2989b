package dev.berth.chaos;

import dev.berth.manager.testing.NeedsDocker;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * Drill 7: kill a whole worker cluster (its API server, every pod on it, and its agent) at once.
 *
 * <p>Invariant: every workload that ran on a cluster that vanished is redispatched after
 * workerLostTimeout and finishes exactly once elsewhere; nothing is lost.
 */
@Tag("needs-failover")
@Order(5)
@NeedsDocker
class KillVirtualClusterDrill {
    static final String INVARIANT = "Every workload of a cluster that vanished is redispatched after workerLostTimeout and finishes"
            + " exactly once elsewhere; nothing is lost.";

    @Test
    void workloadsOfAVanishedClusterFinishElsewhereExactlyOnce() {
        LostSiteScenario.run("kill-virtual-cluster", INVARIANT, lost -> lost.site().killCluster(), lost -> { }, false);
    }
}
