package dev.berth.chaos;

import static org.awaitility.Awaitility.await;

import dev.berth.manager.testing.NeedsDocker;
import dev.berth.virtualcluster.PodInterval;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Drill 8: two-phase dispatch under partition. The MultiKueueConfig uses AllAtOnce over both sites, so
 * every job is sent to both as a reservation. Right after a burst of submissions, one site is cut off
 * the manager's network: its reservations can be neither committed nor withdrawn. The manager commits
 * the copies the other site reserved; the cut-off site's uncommitted reservations run out their leases
 * and are released by its agent, never started.
 *
 * <p>Invariant: only a committed copy ever starts: no attempt has pods on two sites, every acknowledged
 * workload finishes exactly once, no two attempts overlap, and quota equals what is admitted.
 */
@Tag("needs-failover")
@Order(8)
@NeedsDocker
class TwoPhaseDispatchDrill {
    static final String INVARIANT = "Only a committed copy ever starts: with AllAtOnce over two sites and one site partitioned between"
            + " reservation and commit, no attempt ever has pods on two sites, and each workload finishes exactly once.";
    private static final int JOBS = 4;

    @Test
    void aSitePartitionedBetweenReservationAndCommitNeverStartsAnUncommittedCopy() {
        DockerRequirement.require();
        String drill = "two-phase";
        DrillTimeline timeline = new DrillTimeline();
        DrillVerdict verdict = new DrillVerdict(0, List.of("drill did not reach its checks"));
        try {
            DrillEnvironment env = SharedEnvironment.borrow(LostSiteScenario.SHARED, LostSiteScenario.setup());
            env.say("drill " + drill);
            env.api().mergePatch(ManagerApi.KUEUE + "/multikueueconfigs/chaos-clusters",
                    "{\"metadata\":{\"annotations\":{\"berth.dev/dispatch-strategy\":\"AllAtOnce\"}}}");
            WorkerSite cut = env.sites().get(1);
            timeline.note("partitionedSite", cut.name());
            for (int i = 0; i < JOBS; i++) env.submit(drill + "-" + i, 2, "PT20S");
            timeline.fault();
            Faults.disconnect(cut.uplinkContainer(), env.managerNetwork());
            env.say("partitioned " + cut.name() + " right after " + JOBS + " AllAtOnce submissions");
            await().atMost(DrillEnvironment.PATIENCE).pollInterval(Duration.ofMillis(200)).until(() -> !env.clusterActive(cut.name()));
            timeline.detected();
            await().atMost(DrillEnvironment.PATIENCE).pollInterval(Duration.ofMillis(200)).until(() -> env.acknowledged().stream()
                    .map(env::workloadOf).allMatch(w -> DrillEnvironment.isFinished(w)
                            || (DrillEnvironment.isRunning(w) && !cut.name().equals(DrillEnvironment.clusterOf(w)))));
            timeline.recovered();
            env.say("recovered: every workload runs on " + env.sites().get(0).name() + " or finished");

            Faults.connect(cut.uplinkContainer(), env.managerNetwork(), cut.uplinkAlias());
            await().atMost(DrillEnvironment.PATIENCE).until(() -> env.clusterActive(cut.name()));
            env.awaitAllFinished(Duration.ofMinutes(3));
            verdict = withSingleSite(env.verdict(drill + "-"), env.podLifetimes(), drill);
            verdict.assertHolds();
        } finally {
            DrillReport.write(drill, INVARIANT, timeline, verdict);
            SharedEnvironment.discard(); // the MultiKueueConfig carries this drill's strategy
        }
    }

    /**
     * Adds a violation for every attempt whose pods ran on more than one site: only the committed copy of an
     * attempt may start. (A workload may run on two sites one after the other: a site lost after its copy was
     * committed is failed over under a new attempt, which the overlap invariant already checks.)
     */
    private static DrillVerdict withSingleSite(DrillVerdict verdict, List<PodInterval> pods, String prefix) {
        List<String> violations = new ArrayList<>(verdict.violations());
        Map<String, Set<String>> sitesByAttempt = pods.stream()
                .filter(p -> p.workload() != null && p.workload().contains(prefix) && p.attemptId() != null)
                .collect(Collectors.groupingBy(p -> p.workload() + " attempt " + p.attemptId(),
                        Collectors.mapping(PodInterval::cluster, Collectors.toSet())));
        sitesByAttempt.forEach((attempt, sites) -> {
            if (sites.size() > 1) violations.add("two copies started: workload " + attempt + " had pods on " + sites);
        });
        return new DrillVerdict(verdict.workloads(), violations.stream().filter(Objects::nonNull).toList());
    }
}
