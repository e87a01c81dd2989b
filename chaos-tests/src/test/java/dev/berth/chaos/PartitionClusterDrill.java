package dev.berth.chaos;

import static org.awaitility.Awaitility.await;

import dev.berth.manager.testing.NeedsDocker;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * Drill 3: cut a worker cluster off the manager's network; reconnect it after its workloads have moved.
 *
 * <p>Invariant: a partitioned cluster's workloads finish exactly once elsewhere, its own copies stop
 * when their dispatch leases run out (before the new attempts start), and after the reconnect its stale
 * attempts are deleted and never reported.
 */
@Tag("needs-failover")
@Order(2)
@NeedsDocker
class PartitionClusterDrill {
    static final String INVARIANT = "A partitioned cluster's workloads finish exactly once elsewhere; its copies stop when their"
            + " leases run out, before the new attempts start; after reconnecting, its stale attempts are deleted, never reported.";

    @Test
    void aPartitionedClustersWorkloadsMoveAndItsStaleAttemptsAreDeletedOnReconnect() {
        LostSiteScenario.run("partition-cluster", INVARIANT,
                lost -> Faults.disconnect(lost.site().uplinkContainer(), lost.env().managerNetwork()),
                lost -> {
                    Faults.connect(lost.site().uplinkContainer(), lost.env().managerNetwork(), lost.site().uplinkAlias());
                    await().atMost(DrillEnvironment.PATIENCE).until(() -> lost.env().clusterActive(lost.site().name()));
                }, true);
    }
}
