package dev.berth.manager.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.manager.dispatch.StartWithdrawalPolicy.CopyReport;
import dev.berth.manager.dispatch.StartWithdrawalPolicy.StartingAttempt;
import dev.berth.manager.dispatch.StartWithdrawalPolicy.Verdict;
import dev.berth.manager.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/** Issue 20 rule 1 as a table: which attempts a worker could not start are withdrawn, when, and what a report then means. */
class StartWithdrawalPolicyTest {
    private static final Instant DISPATCHED = Instant.parse("2026-12-01T12:00:00Z");
    private static final String NO_ROOM = "insufficient nvidia.com/gpu: 8 requested, 0 free on matching nodes";
    private static final String NO_NODE = "pod train-0 unschedulable: 0/2 nodes are available: 2 Insufficient nvidia.com/gpu.";
    private final MutableClock clock = new MutableClock(DISPATCHED);
    private final StartWithdrawalPolicy policy = new StartWithdrawalPolicy(StartTimeoutOptions.DEFAULTS);

    private static CopyReport pending(String cluster) {
        return new CopyReport(cluster, "Pending", NO_ROOM);
    }

    private static CopyReport unschedulable(String cluster) {
        return new CopyReport(cluster, "Admitted", NO_NODE, true);
    }

    private static StartingAttempt attempt(boolean admitted, boolean busy, CopyReport... copies) {
        return new StartingAttempt("a-1", DISPATCHED, admitted, busy, List.of(copies));
    }

    static Stream<Arguments> rows() {
        return Stream.of(
                Arguments.of("pending on its only cluster past the timeout", attempt(false, false, pending("h100")), Duration.ofMinutes(5),
                        "withdrawn from h100 after 5m: " + NO_ROOM),
                Arguments.of("pending but not yet past the timeout", attempt(false, false, pending("h100")), Duration.ofMinutes(4).plusSeconds(59), null),
                Arguments.of("admitted somewhere: the winner stays", attempt(true, false, pending("h100")), Duration.ofMinutes(30), null),
                Arguments.of("already withdrawing or draining", attempt(false, true, pending("h100")), Duration.ofMinutes(30), null),
                Arguments.of("a copy never reported: left to the missing-listing rule", attempt(false, false, new CopyReport("h100", null, null)),
                        Duration.ofMinutes(30), null),
                Arguments.of("a copy reported Admitted", attempt(false, false, pending("a100"), new CopyReport("h100", "Admitted", null)),
                        Duration.ofMinutes(30), null),
                Arguments.of("every copy pending: all withdrawn", attempt(false, false, pending("a100"), pending("h100")), Duration.ofMinutes(6),
                        "withdrawn from a100, h100 after 6m: " + NO_ROOM),
                Arguments.of("no reason from the agent", attempt(false, false, new CopyReport("h100", "Pending", null)), Duration.ofSeconds(301),
                        "withdrawn from h100 after 5m1s: not started by the agent"),
                Arguments.of("no copy at all", attempt(false, false), Duration.ofMinutes(30), null),
                Arguments.of("admitted, but no node takes its pods (capacity taken after the agent admitted it)",
                        attempt(true, false, unschedulable("h100")), Duration.ofMinutes(5), "withdrawn from h100 after 5m: " + NO_NODE),
                Arguments.of("admitted with unschedulable pods, not yet past the timeout", attempt(true, false, unschedulable("h100")),
                        Duration.ofMinutes(4), null),
                Arguments.of("admitted and its pods scheduled: it started", attempt(true, false, new CopyReport("h100", "Admitted", null, false)),
                        Duration.ofMinutes(30), null),
                Arguments.of("pending while its cluster provisions capacity for it (ProvisioningRequest live): kept, however long",
                        attempt(false, false, new CopyReport("h100", "Pending", NO_ROOM, false, true)), Duration.ofHours(2), null),
                Arguments.of("running with a pod unschedulable: it started", attempt(true, false, new CopyReport("h100", "Running", NO_NODE, true)),
                        Duration.ofMinutes(30), null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void dueForWithdrawal(String behaviour, StartingAttempt attempt, Duration after, String expected) {
        clock.advance(after);

        assertThat(policy.due(attempt, clock.instant())).isEqualTo(Optional.ofNullable(expected));
    }

    @Test
    void aZeroTimeoutTurnsWithdrawalOff() {
        StartWithdrawalPolicy off = new StartWithdrawalPolicy(new StartTimeoutOptions(Duration.ZERO, Duration.ZERO));
        clock.advance(Duration.ofDays(1));

        assertThat(off.due(attempt(false, false, pending("h100")), clock.instant())).isEmpty();
    }

    @Test
    void aRecoveredAttemptWithoutADispatchTimeIsNotDue() {
        clock.advance(Duration.ofDays(1));

        assertThat(policy.due(new StartingAttempt("a-1", null, false, false, List.of(pending("h100"))), clock.instant())).isEmpty();
    }

    static Stream<Arguments> reports() {
        return Stream.of(
                Arguments.of(true, "Pending", Verdict.WAIT),
                Arguments.of(true, null, Verdict.WAIT),
                Arguments.of(true, "Stopped", Verdict.CONFIRMED),
                Arguments.of(true, "Rejected", Verdict.CONFIRMED),
                Arguments.of(false, null, Verdict.CONFIRMED),
                Arguments.of(true, "Admitted", Verdict.CANCEL),
                Arguments.of(true, "Running", Verdict.CANCEL),
                Arguments.of(true, "Succeeded", Verdict.CANCEL));
    }

    @ParameterizedTest(name = "listed={0} phase={1} -> {2}")
    @MethodSource("reports")
    void aReportDuringAWithdrawal(boolean listed, String phase, Verdict expected) {
        assertThat(policy.reported(listed, phase)).isEqualTo(expected);
    }

    @Test
    void anAdmittedCopyStillWaitingForANodeIsNotAStart() {
        assertThat(policy.reported(true, "Admitted", true)).isEqualTo(Verdict.WAIT);
        assertThat(policy.reported(true, "Running", true)).isEqualTo(Verdict.CANCEL);
        assertThat(policy.reported(true, "Stopped", true)).isEqualTo(Verdict.CONFIRMED);
    }

    @Test
    void theLeaseRunsOutAtItsEndNotBefore() {
        Instant gone = DISPATCHED.plusSeconds(70);

        assertThat(StartWithdrawalPolicy.leaseRanOut(gone, gone.minusMillis(1))).isFalse();
        assertThat(StartWithdrawalPolicy.leaseRanOut(gone, gone)).isTrue();
    }

    @Test
    void aWithdrawnClusterIsAvoidedForAWhileThenOfferedAgain() {
        WithdrawnClusters<String> withdrawn = new WithdrawnClusters<>();
        withdrawn.withdrawn("team-a/train", "h100", policy.avoidUntil(clock.instant()), "withdrawn from h100 after 5m: " + NO_ROOM);

        assertThat(withdrawn.avoided("team-a/train", clock.instant())).containsExactly("h100");
        assertThat(withdrawn.avoided("team-a/other", clock.instant())).isEmpty();
        assertThat(withdrawn.note("team-a/train")).startsWith("withdrawn from h100");
        assertThat(withdrawn.told("team-a/train")).startsWith("withdrawn from h100");
        assertThat(withdrawn.note("team-a/train")).as("told once, with the placement that follows").isNull();
        clock.advance(Duration.ofMinutes(10));
        assertThat(withdrawn.avoided("team-a/train", clock.instant())).isEmpty();
    }

    @Test
    void negativeDurationsAreRefusedNamingTheSetting() {
        assertThatThrownBy(() -> new StartTimeoutOptions(Duration.ofSeconds(-1), Duration.ZERO)).hasMessageContaining("dispatch-start-timeout");
    }
}
