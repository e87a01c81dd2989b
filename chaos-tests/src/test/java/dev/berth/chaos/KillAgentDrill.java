package dev.berth.chaos;

import dev.berth.manager.testing.NeedsDocker;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * Drill 1: kill a worker agent while its workloads run.
 *
 * <p>Invariant: when an agent dies, every workload it ran is evicted after workerLostTimeout and runs
 * to completion elsewhere exactly once, and never two attempts of it at the same time.
 */
// A killed agent cannot stop its pods: the manager deletes them through the cluster's API and redispatches
// only once none runs (OldAttemptFences, docs/failover.md).
@Tag("needs-failover")
@Order(4)
@NeedsDocker
class KillAgentDrill {
    static final String INVARIANT = "When an agent dies, its workloads are redispatched after workerLostTimeout and each finishes"
            + " exactly once, never two attempts at the same time.";

    @Test
    void workloadsOfADeadAgentFinishElsewhereExactlyOnce() {
        // Healed as its Deployment would: the agent starts again, and the site is Active again.
        LostSiteScenario.run("kill-agent", INVARIANT, lost -> Faults.kill(lost.site().agent()), lost -> {
            Faults.start(lost.site().agent());
            lost.env().awaitClustersActive();
        }, true);
    }
}
