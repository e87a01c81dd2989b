package dev.berth.manager.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.dispatch.WarmStandbyPlan.Held;
import dev.berth.manager.dispatch.WarmStandbyPlan.Role;
import dev.berth.manager.dispatch.WarmStandbyPlan.Round;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A follower's warm standby round: which clients to build, close and probe (sources are plain strings here). */
class WarmStandbyPlanTest {
    private static final Instant NOW = Instant.parse("2026-12-02T03:00:00Z");
    private static final Duration EVERY = Duration.ofSeconds(2);

    private static Round<String> round(Role role, Map<String, String> wanted, Map<String, Held<String>> held) {
        return WarmStandbyPlan.round(role, wanted, held, NOW, EVERY);
    }

    @Test
    void aFollowerBuildsAClientForEveryStoredClusterItHasNone() {
        Round<String> round = round(Role.FOLLOWING, Map.of("east", "k1", "west", "k2"), Map.of());
        assertThat(round.build()).isEqualTo(Map.of("east", "k1", "west", "k2"));
        assertThat(round.close()).isEmpty();
        assertThat(round.probe()).isEmpty();
    }

    @Test
    void aHeldClientReadsItsClusterOncePerProbeInterval() {
        Map<String, Held<String>> held = Map.of(
                "due", new Held<>("k1", NOW.minus(EVERY)),
                "fresh", new Held<>("k2", NOW.minusMillis(500)),
                "neverRead", new Held<>("k3", null));
        Round<String> round = round(Role.FOLLOWING, Map.of("due", "k1", "fresh", "k2", "neverRead", "k3"), held);
        assertThat(round.probe()).containsExactlyInAnyOrder("due", "neverRead");
        assertThat(round.build()).isEmpty();
        assertThat(round.close()).isEmpty();
    }

    @Test
    void whenAnotherReplicaLeavesAFollowerReadsEveryHeldClusterAtOnce() {
        Map<String, Held<String>> held = Map.of("fresh", new Held<>("k1", NOW.minusMillis(100)), "due", new Held<>("k2", NOW.minus(EVERY)));
        Round<String> round = WarmStandbyPlan.round(Role.FOLLOWING, Map.of("fresh", "k1", "due", "k2"), held, NOW, EVERY, true);
        assertThat(round.probe()).containsExactlyInAnyOrder("fresh", "due");
        assertThat(round.build()).isEmpty();
        assertThat(round.close()).isEmpty();
        assertThat(WarmStandbyPlan.round(Role.TAKING_OFFICE, Map.of("fresh", "k1"), held, NOW, EVERY, true).idle())
                .as("taking office: the clients wait for adoption, untouched").isTrue();
    }

    @Test
    void aChangedKubeconfigClosesTheClientAndBuildsItAgain() {
        Round<String> round = round(Role.FOLLOWING, Map.of("east", "rotated"), Map.of("east", new Held<>("old", NOW)));
        assertThat(round.close()).containsExactly("east");
        assertThat(round.build()).isEqualTo(Map.of("east", "rotated"));
        assertThat(round.probe()).isEmpty();
    }

    @Test
    void aClusterNoLongerStoredHasItsClientClosed() {
        Round<String> round = round(Role.FOLLOWING, Map.of(), Map.of("gone", new Held<>("k1", NOW)));
        assertThat(round.close()).containsExactly("gone");
        assertThat(round.build()).isEmpty();
    }

    @Test
    void aLeaderHoldsNoStandbyClientAndBuildsNone() {
        Round<String> round = round(Role.LEADING, Map.of("east", "k1", "west", "k2"), Map.of("east", new Held<>("k1", NOW.minus(EVERY))));
        assertThat(round.close()).containsExactly("east");
        assertThat(round.build()).isEmpty();
        assertThat(round.probe()).isEmpty();
    }

    @Test
    void whileTakingOfficeEveryClientIsKeptAsItIsForTheNewManagerToAdopt() {
        Map<String, Held<String>> held = Map.of("east", new Held<>("k1", NOW.minus(EVERY)), "gone", new Held<>("k2", NOW));
        Round<String> round = round(Role.TAKING_OFFICE, Map.of("east", "k1", "west", "k3"), held);
        assertThat(round.idle()).as("nothing closed, built or probed").isTrue();
    }

    @Test
    void nothingToDoIsIdle() {
        assertThat(round(Role.FOLLOWING, Map.of("east", "k1"), Map.of("east", new Held<>("k1", NOW))).idle()).isTrue();
        assertThat(round(Role.LEADING, Map.of(), Map.of()).idle()).isTrue();
        assertThat(round(Role.FOLLOWING, Map.of("east", "k1"), Map.of()).idle()).isFalse();
        assertThat(List.of(round(Role.FOLLOWING, Map.of("east", "k1"), Map.of()).build().keySet())).hasSize(1);
    }
}
