package dev.berth.chaos;

import static org.awaitility.Awaitility.await;

import dev.berth.manager.testing.NeedsDocker;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Drill 5: kill the leader of two manager replicas (over the drill's own PostgreSQL, Hazelcast joined
 * by network aliases) during a burst of submissions.
 *
 * <p>Invariant: every submission acknowledged by any replica, before or after the leader's death,
 * finishes exactly once; the new leader dispatches without duplicating any dispatch. A submission the
 * survivor refuses while no leader is known (503) was never acknowledged and is not counted.
 */
@NeedsDocker
class KillLeaderDrill {
    static final String INVARIANT = "Every submission acknowledged by any replica, before or after the leader dies, finishes exactly"
            + " once; the new leader dispatches with no duplicate dispatch.";
    private static final int BURST = 18;
    private static final int REPLICAS = 2;

    @Test
    void acknowledgedSubmissionsFinishExactlyOnceAcrossALeaderDeath() {
        DockerRequirement.require();
        DrillTimeline timeline = new DrillTimeline();
        DrillVerdict verdict = new DrillVerdict(0, List.of("drill did not reach its checks"));
        try (DrillEnvironment env = DrillEnvironment.start("kill-leader", DrillSetup.twoSites().withReplicas(REPLICAS))) {
            ManagerReplica leader = await().atMost(DrillEnvironment.PATIENCE).until(() -> Leadership.leader(env), r -> r != null);
            int refused = 0;
            long killedAt = 0;
            for (int i = 0; i < BURST; i++) {
                if (i == BURST / 3) {
                    env.say("killing leader " + leader.alias() + " mid-burst");
                    timeline.fault();
                    killedAt = System.nanoTime();
                    env.killManager(leader);
                }
                if (!env.submit("burst-" + i, 1, "PT10S")) refused++;
            }
            await().atMost(DrillEnvironment.PATIENCE).pollInterval(Duration.ofMillis(200)).until(() -> Leadership.leader(env) != null);
            timeline.detected();
            env.say("new leader " + Leadership.leader(env).alias() + " after " + (System.nanoTime() - killedAt) / 1_000_000 + " ms");
            String after = "after-failover";
            await().atMost(DrillEnvironment.PATIENCE).pollInterval(Duration.ofMillis(200)).until(() -> env.submit(after, 1, "PT5S"));
            await().atMost(DrillEnvironment.PATIENCE).pollInterval(Duration.ofMillis(200))
                    .until(() -> "True".equals(ManagerApi.condition(env.workloadOf(after), "QuotaReserved")));
            long admittedAfterMillis = (System.nanoTime() - killedAt) / 1_000_000;
            await().atMost(DrillEnvironment.PATIENCE).pollInterval(Duration.ofMillis(200))
                    .until(() -> DrillEnvironment.isRunning(env.workloadOf(after)) || DrillEnvironment.isFinished(env.workloadOf(after)));
            timeline.recovered();
            timeline.note("acknowledged", env.acknowledged().size());
            timeline.note("refusedWhileLeaderless", refused);
            timeline.note("firstAdmissionAfterKillMillis", admittedAfterMillis);
            timeline.note("detection", "a surviving replica reports itself leader");
            timeline.note("recovery", "a job submitted after the failover is dispatched and running");
            env.awaitAllFinished(Duration.ofMinutes(3));
            verdict = env.verdict();
            verdict.assertHolds();
        } finally {
            DrillReport.write("kill-leader", INVARIANT, timeline, verdict);
        }
    }
}
