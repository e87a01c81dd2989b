package dev.berth.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.berth.manager.testing.NeedsDocker;
import dev.berth.virtualcluster.PodInterval;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Drill 6: restart every manager replica (killed, then started again on their volumes).
 *
 * <p>Invariant: every submission the API acknowledged survives a restart of all manager replicas, and
 * workloads that were running are re-adopted from the worker clusters, not started again.
 */
@NeedsDocker
class RestartManagersDrill {
    static final String INVARIANT = "Every acknowledged submission survives a restart of all manager replicas, and running"
            + " workloads are re-adopted from the worker clusters, not restarted.";

    @Test
    void acknowledgedWorkSurvivesAFullRestartAndRunningWorkIsReadopted() {
        drill("restart-managers", DrillSetup.twoSites());
    }

    /** The same over two replicas sharing the drill's PostgreSQL: both are killed, both start again. */
    @Test
    void acknowledgedWorkSurvivesAFullRestartOfReplicasOverPostgres() {
        drill("restart-manager-replicas", DrillSetup.twoSites().withReplicas(2));
    }

    private static void drill(String name, DrillSetup setup) {
        DockerRequirement.require();
        DrillTimeline timeline = new DrillTimeline();
        DrillVerdict verdict = new DrillVerdict(0, List.of("drill did not reach its checks"));
        try (DrillEnvironment env = DrillEnvironment.start(name, setup)) {
            // Ten 2-GPU jobs against a 16-GPU quota: eight run, two wait; all ten are acknowledged.
            for (int i = 0; i < 10; i++) assertThat(env.submit("restart-" + i, 2, "PT30S")).isTrue();
            await().atMost(DrillEnvironment.PATIENCE).until(() -> running(env).size() == 8);
            Set<String> runningBefore = running(env).keySet();

            timeline.fault();
            env.replicas().forEach(env::killManager);
            env.startManagersAgain();
            timeline.detected();
            await().atMost(DrillEnvironment.PATIENCE).pollInterval(Duration.ofMillis(200))
                    .until(() -> running(env).keySet().containsAll(runningBefore));
            timeline.recovered();

            env.awaitAllFinished(Duration.ofMinutes(3));
            List<PodInterval> pods = env.podLifetimes();
            Map<String, Long> attemptsOfRunning = runningBefore.stream().collect(Collectors.toMap(w -> w,
                    w -> pods.stream().filter(p -> w.equals(p.workload())).map(PodInterval::attemptId).distinct().count()));
            timeline.note("acknowledged", env.acknowledged().size());
            timeline.note("runningAtRestart", runningBefore.size());
            timeline.note("detection", "restarted manager answers /readyz");
            timeline.note("recovery", "every workload running at the restart is reported Running again by the new manager");
            verdict = env.verdict();
            assertThat(attemptsOfRunning).as("attempts per workload that was running at the restart (1 = re-adopted)")
                    .allSatisfy((workload, attempts) -> assertThat(attempts).isEqualTo(1L));
            verdict.assertHolds();
        } finally {
            DrillReport.write(name, INVARIANT, timeline, verdict);
        }
    }

    /** Running workloads by name, with the cluster each runs on. */
    private static Map<String, String> running(DrillEnvironment env) {
        return env.api().workloads(ChaosQueues.NAMESPACE).stream().filter(DrillEnvironment::isRunning)
                .collect(Collectors.toMap(w -> w.path("metadata").path("name").asText(), DrillEnvironment::clusterOf));
    }

}
