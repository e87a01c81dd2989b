package dev.berth.chaos;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * The shape the drills that lose a worker site share: six 2-GPU jobs run; the site running most of them
 * suffers {@code fault}; detection is the first sign of it in the manager (its MultiKueueCluster no
 * longer Active, or one of its workloads evicted or placed elsewhere); recovery is every workload it ran
 * running elsewhere or finished. Then {@code heal} (may do nothing), every job runs to its end, and the
 * invariants are judged. The manager runs with the failover flags ({@link ManagerFlags#FAILOVER}).
 */
final class LostSiteScenario {
    private static final int JOBS = 6;
    private static final String RUNTIME = "PT25S";

    private LostSiteScenario() {}

    /** The environment the failover drills share (see {@link SharedEnvironment}). */
    static final String SHARED = "failover-drills";

    static DrillSetup setup() {
        return DrillSetup.twoSites().withManagerFlags(ManagerFlags.FAILOVER);
    }

    /**
     * Runs the scenario on the shared environment. {@code healed} says whether {@code heal} leaves
     * every site whole, so that the next drill may reuse the environment.
     */
    static void run(String drill, String invariant, Consumer<Fault> fault, Consumer<Fault> heal, boolean healed) {
        DockerRequirement.require();
        DrillTimeline timeline = new DrillTimeline();
        DrillVerdict verdict = new DrillVerdict(0, List.of("drill did not reach its checks"));
        boolean reusable = false;
        DrillEnvironment lent = null;
        try {
            DrillEnvironment env = SharedEnvironment.borrow(SHARED, setup());
            lent = env;
            env.say("drill " + drill);
            for (int i = 0; i < JOBS; i++) env.submit(drill + "-" + i, 2, RUNTIME);
            await().atMost(DrillEnvironment.PATIENCE).until(() -> running(env).size() == JOBS);
            Map<String, String> placed = running(env);
            String victimName = placed.values().stream().collect(Collectors.groupingBy(c -> c, Collectors.counting()))
                    .entrySet().stream().max(Map.Entry.comparingByValue(Comparator.naturalOrder())).orElseThrow().getKey();
            Set<String> onVictim = placed.entrySet().stream().filter(e -> e.getValue().equals(victimName)).map(Map.Entry::getKey)
                    .collect(Collectors.toSet());
            Fault target = new Fault(env, env.site(victimName));
            timeline.note("lostSite", victimName);
            timeline.note("workloadsOnLostSite", onVictim.size());

            env.say("fault on " + victimName + " running " + onVictim);
            timeline.fault();
            fault.accept(target);
            await().atMost(DrillEnvironment.PATIENCE).pollInterval(Duration.ofMillis(200))
                    .until(() -> !env.clusterActive(victimName) || movedOrEvicted(env, onVictim, victimName));
            timeline.detected();
            await().atMost(DrillEnvironment.PATIENCE).pollInterval(Duration.ofMillis(200))
                    .until(() -> allElsewhereOrFinished(env, onVictim, victimName));
            timeline.recovered();
            env.say("recovered: every workload of " + victimName + " runs elsewhere or finished");

            heal.accept(target);
            env.awaitAllFinished(Duration.ofMinutes(3));
            verdict = env.verdict(drill + "-");
            reusable = healed;
            verdict.assertHolds();
        } finally {
            DrillReport.write(drill, invariant, timeline, verdict);
            if (lent != null && reusable) SharedEnvironment.giveBack(lent);
            else SharedEnvironment.discard();
        }
    }

    /** The site a fault hits, in its environment. */
    record Fault(DrillEnvironment env, WorkerSite site) {
    }

    static Map<String, String> running(DrillEnvironment env) {
        return env.api().workloads(ChaosQueues.NAMESPACE).stream().filter(DrillEnvironment::isRunning)
                .collect(Collectors.toMap(w -> w.path("metadata").path("name").asText(), DrillEnvironment::clusterOf));
    }

    private static boolean movedOrEvicted(DrillEnvironment env, Set<String> names, String victim) {
        return env.api().workloads(ChaosQueues.NAMESPACE).stream().filter(w -> names.contains(name(w)))
                .anyMatch(w -> "True".equals(ManagerApi.condition(w, "Evicted")) || !victim.equals(DrillEnvironment.clusterOf(w)));
    }

    private static boolean allElsewhereOrFinished(DrillEnvironment env, Set<String> names, String victim) {
        return env.api().workloads(ChaosQueues.NAMESPACE).stream().filter(w -> names.contains(name(w)))
                .allMatch(w -> DrillEnvironment.isFinished(w) || (DrillEnvironment.isRunning(w) && !victim.equals(DrillEnvironment.clusterOf(w))));
    }

    private static String name(JsonNode workload) {
        return workload.path("metadata").path("name").asText();
    }
}
