package dev.berth.chaos;

import static org.awaitility.Awaitility.await;

import dev.berth.manager.testing.NeedsDocker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Drill 5: kill the leader of two manager replicas (over the drill's own PostgreSQL, Hazelcast joined
 * by network aliases) during a burst of {@value #BURST} submissions, {@value #ROUNDS} times: the burst is
 * split in rounds, each round kills the leader a third of the way through its submissions, and the
 * killed replica is started again before the next round.
 *
 * <p>Invariant: every submission acknowledged by any replica, before or after a leader's death,
 * finishes exactly once; the new leaders dispatch without duplicating any dispatch. A submission the
 * survivor refuses while no leader is known (503) was never acknowledged and is not counted.
 *
 * <p>Measured per round ({@link FailoverWatch}) and reported, never asserted: from the {@code docker kill}
 * until a replica leads, until the new leader first gives a workload quota, and until it first dispatches one.
 */
@NeedsDocker
class KillLeaderDrill {
    static final String INVARIANT = "Every submission acknowledged by any replica during a burst of 200, across several leader deaths,"
            + " finishes exactly once; the new leaders dispatch with no duplicate dispatch.";
    private static final int BURST = 200;
    private static final int ROUNDS = 3;
    private static final int REPLICAS = 2;

    @Test
    void acknowledgedSubmissionsFinishExactlyOnceAcrossLeaderDeaths() {
        DockerRequirement.require();
        DrillTimeline timeline = new DrillTimeline();
        DrillVerdict verdict = new DrillVerdict(0, List.of("drill did not reach its checks"));
        List<Long> leads = new ArrayList<>();
        List<Long> scheduled = new ArrayList<>();
        List<Long> dispatched = new ArrayList<>();
        List<String> killedAt = new ArrayList<>(); // wall clock, to read the replicas' logs against
        try (DrillEnvironment env = DrillEnvironment.start("kill-leader", DrillSetup.twoSites().withReplicas(REPLICAS))) {
            int refused = 0;
            int submitted = 0;
            for (int round = 0; round < ROUNDS; round++) {
                ManagerReplica leader = await().atMost(DrillEnvironment.PATIENCE).until(() -> Leadership.leader(env), r -> r != null);
                int count = round == ROUNDS - 1 ? BURST - submitted : BURST / ROUNDS;
                CompletableFuture<FailoverWatch.Times> watch = null;
                for (int i = 0; i < count; i++) {
                    if (i == count / 3) {
                        env.say("round " + round + ": killing leader " + leader.alias() + " mid-burst");
                        if (round == 0) timeline.fault();
                        long killedNanos = System.nanoTime();
                        killedAt.add(java.time.Instant.now().toString());
                        env.killManager(leader);
                        boolean first = round == 0;
                        watch = FailoverWatch.start(env, killedNanos, () -> {
                            if (first) timeline.detected();
                        }, () -> {
                            if (first) timeline.recovered();
                        });
                    }
                    if (!env.submit("burst-" + submitted++, 1, "PT2S")) refused++;
                }
                FailoverWatch.Times times = watch.join();
                env.say("round " + round + ": leads after " + times.leadsMillis() + " ms, schedules after " + times.scheduledMillis()
                        + " ms, dispatches after " + times.dispatchedMillis() + " ms");
                leads.add(times.leadsMillis());
                scheduled.add(times.scheduledMillis());
                dispatched.add(times.dispatchedMillis());
                if (round < ROUNDS - 1) {
                    ManagerReplica again = env.startManagerAgain(leader);
                    await().atMost(DrillEnvironment.PATIENCE).pollInterval(Duration.ofMillis(500))
                            .until(() -> knowsALeader(again));
                }
            }
            timeline.note("acknowledged", env.acknowledged().size());
            timeline.note("refusedWhileLeaderless", refused);
            timeline.note("rounds", ROUNDS);
            timeline.note("killedAt", killedAt);
            timeline.note("killToLeaderMillis", leads);
            timeline.note("killToScheduledMillis", scheduled);
            timeline.note("killToDispatchedMillis", dispatched);
            timeline.note("medianKillToLeaderMillis", FailoverWatch.median(leads));
            timeline.note("medianKillToScheduledMillis", FailoverWatch.median(scheduled));
            timeline.note("medianKillToDispatchedMillis", FailoverWatch.median(dispatched));
            timeline.note("detection", "round 0: a surviving replica reports itself leader; every round in killToLeaderMillis");
            timeline.note("recovery", "round 0: the new leader dispatched a workload it had not at the kill; every round in killToDispatchedMillis");
            long started = System.nanoTime();
            env.awaitAllFinished(Duration.ofMinutes(8));
            timeline.note("allFinishedAfterLastRoundMillis", (System.nanoTime() - started) / 1_000_000);
            verdict = env.verdict();
            verdict.assertHolds();
        } finally {
            DrillReport.write("kill-leader", INVARIANT, timeline, verdict);
        }
    }

    /** The replica started again joined the others: it names the leader it knows of. */
    private static boolean knowsALeader(ManagerReplica replica) {
        return replica.api().trySend("GET", Leadership.REPLICA_PATH, null, null)
                .filter(answer -> answer.statusCode() == 200 && answer.body().contains("knownLeader")).isPresent();
    }
}
