package dev.berth.manager.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

class UnservedFlavorsTest {
    private static final Instant START = Instant.parse("2026-12-01T12:00:00Z");
    private static final WorkloadKey KEY = WorkloadKey.of("team-a", "train");
    private final MutableClock clock = new MutableClock(START);
    private final UnservedFlavors rule = new UnservedFlavors(clock, new UnservedFlavorOptions(Duration.ofMinutes(5), Duration.ofSeconds(60)));

    /** A connected cluster whose agent reported these flavors (with room or not: capacity plays no part here). */
    private static ClusterView offering(String name, String... flavors) {
        Map<String, FlavorCapacity> catalogue = Arrays.stream(flavors)
                .collect(Collectors.toMap(f -> f, f -> new FlavorCapacity(f, Map.of("nvidia.com/gpu", 0L), Map.of())));
        return new ClusterView(name, true, false, START, catalogue);
    }

    private static ClusterView disconnected(String name, String... flavors) {
        Map<String, FlavorCapacity> catalogue = Arrays.stream(flavors)
                .collect(Collectors.toMap(f -> f, f -> new FlavorCapacity(f, Map.of(), Map.of())));
        return new ClusterView(name, false, false, START, catalogue);
    }

    private static ClusterView silent(String name) {
        return new ClusterView(name, true, false, null, Map.of());
    }

    static Stream<Arguments> situations() {
        return Stream.of(
                Arguments.of("a connected cluster offers the flavor, even full: placement's waiting, not this rule",
                        Set.of("h100"), List.of(offering("gpu-h", "h100")), Duration.ofHours(1), UnservedFlavors.State.SERVED, ""),
                Arguments.of("no cluster reports at all: an outage, failover's business",
                        Set.of("h100"), List.of(disconnected("gpu-h", "h100"), silent("gpu-b")), Duration.ofHours(1),
                        UnservedFlavors.State.NO_CLUSTER_REPORTING, ""),
                Arguments.of("the only cluster offering it is disconnected: unserved, waiting for the timeout",
                        Set.of("h100"), List.of(disconnected("gpu-h", "h100"), offering("a100-spot", "a100")), Duration.ofMinutes(4),
                        UnservedFlavors.State.WAITING,
                        "no connected worker cluster offers flavor h100 (a100-spot offers a100); its quota is released at "
                                + "2026-12-01T12:05:00Z (after 5m) unless a worker cluster offering it connects"),
                Arguments.of("unserved past the timeout: Retry, naming what the clusters offer",
                        Set.of("h100"), List.of(offering("a100-spot", "a100"), offering("a100-ondemand", "a100")), Duration.ofMinutes(5),
                        UnservedFlavors.State.RETRY,
                        "no connected worker cluster offers flavor h100 (a100-spot, a100-ondemand offer a100); quota released after 5m, retrying"),
                Arguments.of("each flavor offered somewhere but never together: unserved as a combination",
                        Set.of("a100", "h100"), List.of(offering("gpu-a", "a100"), offering("gpu-h", "h100")), Duration.ofMinutes(6),
                        UnservedFlavors.State.RETRY,
                        "no connected worker cluster offers flavors a100 and h100 together (gpu-a offers a100; gpu-h offers h100); "
                                + "quota released after 5m, retrying"),
                Arguments.of("a cluster whose agent never reported does not count as offering",
                        Set.of("h100"), List.of(silent("gpu-h"), offering("gpu-a", "a100", "cpu")), Duration.ofMinutes(5),
                        UnservedFlavors.State.RETRY,
                        "no connected worker cluster offers flavor h100 (gpu-a offers a100, cpu); quota released after 5m, retrying"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("situations")
    void decides(String behaviour, Set<String> flavors, List<ClusterView> clusters, Duration after, UnservedFlavors.State state,
                 String message) {
        rule.observe(KEY, flavors, clusters);
        clock.advance(after);

        UnservedFlavors.Verdict verdict = rule.observe(KEY, flavors, clusters);

        assertThat(verdict.state()).isEqualTo(state);
        assertThat(verdict.message()).isEqualTo(message);
    }

    @Test
    void theTimeoutCountsFromTheFirstUnservedSightingAndRestartsOnceServed() {
        List<ClusterView> unserved = List.of(offering("a100-spot", "a100"));
        rule.observe(KEY, Set.of("h100"), unserved);
        clock.advance(Duration.ofMinutes(3));
        assertThat(rule.observe(KEY, Set.of("h100"), List.of(offering("gpu-h", "h100"))).state()).isEqualTo(UnservedFlavors.State.SERVED);
        rule.observe(KEY, Set.of("h100"), unserved);
        clock.advance(Duration.ofMinutes(3));

        assertThat(rule.observe(KEY, Set.of("h100"), unserved).state()).isEqualTo(UnservedFlavors.State.WAITING);
        assertThat(rule.due()).isEmpty();
        clock.advance(Duration.ofMinutes(2));
        assertThat(rule.due()).containsExactly(KEY);
        assertThat(rule.observe(KEY, Set.of("h100"), unserved).retry()).isTrue();
    }

    @Test
    void aRetriedWorkloadAvoidsTheFlavorUntilAConnectedClusterOfItsConfigOffersIt() {
        List<ClusterView> views = List.of(offering("a100-spot", "a100"));
        rule.observe(KEY, Set.of("h100"), views);
        clock.advance(Duration.ofMinutes(5));
        UnservedFlavors.Verdict verdict = rule.observe(KEY, Set.of("h100"), views);

        assertThat(rule.retried(KEY, verdict, Set.of("h100"), "workers")).containsExactly("h100");
        assertThat(rule.avoided(KEY)).containsExactly("h100");
        assertThat(rule.due()).isEmpty();

        Map<String, List<ClusterView>> configs = new java.util.HashMap<>(Map.of(
                "workers", List.of(offering("a100-spot", "a100"), disconnected("gpu-h", "h100")),
                "others", List.of(offering("elsewhere", "h100"))));
        Function<String, List<ClusterView>> clustersOf = configs::get;
        assertThat(rule.refresh(clustersOf)).as("a cluster outside the workload's config, or disconnected, does not lift it").isEmpty();

        configs.put("workers", List.of(offering("a100-spot", "a100"), disconnected("gpu-h", "h100"), offering("gpu-h2", "h100")));
        assertThat(rule.refresh(clustersOf)).as("a cluster added to its config does").containsExactly(Map.entry(KEY, Set.of()));
        assertThat(rule.avoided(KEY)).isEmpty();
        assertThat(rule.refresh(clustersOf)).isEmpty();
    }

    @Test
    void aDeletedWorkloadLeavesNothingBehind() {
        List<ClusterView> views = List.of(offering("a100-spot", "a100"));
        rule.observe(KEY, Set.of("h100"), views);
        clock.advance(Duration.ofMinutes(5));
        rule.retried(KEY, rule.observe(KEY, Set.of("h100"), views), Set.of("h100"), "workers");
        rule.observe(KEY, Set.of("tpu"), views);

        rule.deleted(KEY);

        assertThat(rule.avoided(KEY)).isEmpty();
        clock.advance(Duration.ofHours(1));
        assertThat(rule.due()).isEmpty();
    }

    @Test
    void theRetryBackoffDoublesUpToKueuesCap() {
        UnservedFlavorOptions options = new UnservedFlavorOptions(Duration.ofMinutes(5), Duration.ofSeconds(60));

        assertThat(List.of(options.requeueAfterSeconds(1), options.requeueAfterSeconds(2), options.requeueAfterSeconds(3),
                options.requeueAfterSeconds(10))).containsExactly(60, 120, 240, 1800);
        assertThatThrownBy(() -> new UnservedFlavorOptions(Duration.ZERO, Duration.ofSeconds(1)))
                .hasMessageContaining("unserved-flavor-timeout");
    }
}
