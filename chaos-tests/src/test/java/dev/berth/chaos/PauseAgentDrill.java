package dev.berth.chaos;

import dev.berth.manager.testing.NeedsDocker;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * Drill 2: freeze a worker agent (docker pause), then thaw it once its workloads have moved.
 *
 * <p>Invariant: a frozen agent's workloads finish exactly once elsewhere, and when it thaws it never
 * runs or reports a stale attempt: no two attempts of a workload ever overlap.
 */
@Tag("needs-failover")
// A frozen agent cannot stop its pods: the manager deletes them through the cluster's API and redispatches
// only once none runs (OldAttemptFences, docs/failover.md).
@Order(3)
@NeedsDocker
class PauseAgentDrill {
    static final String INVARIANT = "A frozen agent's workloads finish exactly once elsewhere; thawed, it runs no stale attempt,"
            + " so no two attempts ever overlap.";

    @Test
    void aFrozenAgentsWorkloadsMoveAndItsThawRunsNothingStale() {
        LostSiteScenario.run("pause-agent", INVARIANT, lost -> Faults.pause(lost.site().agent()), lost -> {
            Faults.unpause(lost.site().agent());
            lost.env().awaitClustersActive();
        }, true);
    }
}
