package dev.berth.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.berth.manager.testing.NeedsDocker;
import dev.berth.virtualcluster.PodInterval;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Test;

/**
 * Drill 4: slow a worker cluster's API down with added latency, and flap its network.
 *
 * <p>Invariant: transient blips evict nothing (every workload finishes exactly once, in its first
 * attempt), and a hung cluster never blocks dispatch to the others.
 */
@Order(1)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@NeedsDocker
class SlowAndFlappingClusterDrill {
    static final String BLIP_INVARIANT = "Transient blips (added latency, a flapping uplink) evict nothing: every workload finishes"
            + " exactly once, in its first attempt.";
    static final String HUNG_INVARIANT = "A hung worker cluster never blocks dispatch to the others: new work runs and finishes"
            + " exactly once on the healthy cluster.";
    private static final int FLAPS = 3;

    /** Added each way on the slow uplink: a renewal (a read and a write) stays inside the drill's 1.5 s call timeout. */
    private static final Duration LATENCY = Duration.ofMillis(200);
    /** How long the uplink is down per flap: shorter than the contact grace (4 s) and the dispatch lease (6 s). */
    private static final Duration BLIP = Duration.ofSeconds(2);
    /** How long it is up between flaps, enough for a renewal to get through. */
    private static final Duration BETWEEN_BLIPS = Duration.ofSeconds(5);

    @Test
    @Order(1)
    void latencyAndAFlappingUplinkEvictsNothing() {
        DockerRequirement.require();
        DrillTimeline timeline = new DrillTimeline();
        DrillVerdict verdict = new DrillVerdict(0, List.of("drill did not reach its checks"));
        try (DrillEnvironment env = DrillEnvironment.start("slow-and-flapping", DrillSetup.twoSites())) {
            for (int i = 0; i < 4; i++) env.submit("blip-" + i, 2, "PT60S");
            await().atMost(DrillEnvironment.PATIENCE).until(() -> LostSiteScenario.running(env).size() == 4);
            Map<String, String> placed = LostSiteScenario.running(env);
            WorkerSite victim = env.site(placed.values().iterator().next());
            Uplink uplink = victim.uplink();
            AtomicBoolean shownInactive = new AtomicBoolean();
            // Each check: every workload still runs where it was placed, and whether the manager shows the site not Active.
            Callable<Boolean> nothingMoved = () -> {
                if (!env.clusterActive(victim.name()) && shownInactive.compareAndSet(false, true)) timeline.detected();
                return LostSiteScenario.running(env).equals(placed);
            };

            timeline.fault();
            uplink.latency(LATENCY);
            for (int flap = 0; flap < FLAPS; flap++) {
                env.say("flap " + (flap + 1) + " of " + victim.name() + "'s uplink");
                uplink.down();
                await().during(BLIP).atMost(BLIP.plusSeconds(10)).pollInterval(Duration.ofMillis(200)).until(nothingMoved);
                uplink.up();
                await().during(BETWEEN_BLIPS).atMost(BETWEEN_BLIPS.plusSeconds(10)).pollInterval(Duration.ofMillis(200)).until(nothingMoved);
            }
            uplink.latency(Duration.ZERO);
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> env.clusterActive(victim.name()));
            timeline.recovered();
            timeline.note("site", victim.name());
            timeline.note("flaps", FLAPS);
            timeline.note("latencyMillis", LATENCY.toMillis());
            timeline.note("blipMillis", BLIP.toMillis());
            timeline.note("shownInactive", shownInactive.get());
            timeline.note("detection", "the manager shows the site's MultiKueueCluster not Active during a blip (none: it never did)");
            timeline.note("recovery", "Active after the last flap, latency removed");

            env.awaitAllFinished(Duration.ofMinutes(3));
            List<PodInterval> pods = env.podLifetimes();
            Map<String, Long> attempts = placed.keySet().stream().collect(Collectors.toMap(w -> w,
                    w -> pods.stream().filter(p -> w.equals(p.workload())).map(PodInterval::attemptId).distinct().count()));
            verdict = env.verdict();
            assertThat(attempts).as("attempts per workload (1 = never evicted)").allSatisfy((w, n) -> assertThat(n).isEqualTo(1L));
            verdict.assertHolds();
        } finally {
            DrillReport.write("slow-and-flapping", BLIP_INVARIANT, timeline, verdict);
        }
    }

    @Test
    @Order(2)
    @Tag("needs-failover")
    void aHungClusterNeverBlocksDispatchToTheOthers() {
        DockerRequirement.require();
        DrillTimeline timeline = new DrillTimeline();
        DrillVerdict verdict = new DrillVerdict(0, List.of("drill did not reach its checks"));
        boolean reusable = false;
        DrillEnvironment lent = null;
        try {
            DrillEnvironment env = SharedEnvironment.borrow(LostSiteScenario.SHARED, LostSiteScenario.setup());
            lent = env;
            env.say("drill hung-cluster");
            WorkerSite hung = env.sites().get(0);
            String healthy = env.sites().get(1).name();
            timeline.fault();
            hung.uplink().latency(Duration.ofSeconds(60));
            for (int i = 0; i < 4; i++) env.submit("hung-" + i, 2, "PT20S");
            await().atMost(DrillEnvironment.PATIENCE).pollInterval(Duration.ofMillis(200)).until(() -> !env.clusterActive(hung.name()));
            timeline.detected();
            await().atMost(DrillEnvironment.PATIENCE).pollInterval(Duration.ofMillis(200))
                    .until(() -> LostSiteScenario.running(env).values().stream().filter(healthy::equals).count() == 4);
            timeline.recovered();
            timeline.note("hungSite", hung.name());
            timeline.note("recovery", "all four new workloads run on the healthy site");
            hung.uplink().latency(Duration.ZERO);
            env.awaitAllFinished(Duration.ofMinutes(3));
            await().atMost(DrillEnvironment.PATIENCE).until(() -> env.clusterActive(hung.name()));
            verdict = env.verdict("hung-");
            reusable = true;
            verdict.assertHolds();
        } finally {
            DrillReport.write("hung-cluster", HUNG_INVARIANT, timeline, verdict);
            if (lent != null && reusable) SharedEnvironment.giveBack(lent);
            else SharedEnvironment.discard();
        }
    }
}
