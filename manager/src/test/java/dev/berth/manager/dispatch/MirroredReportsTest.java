package dev.berth.manager.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.protocol.crd.RemoteWorkloadPhase;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/** Which reports of a listing are mirrored again: only what may have changed since the last mirror. */
class MirroredReportsTest {
    private static final Instant T0 = Instant.parse("2026-12-02T13:00:00Z");
    private static final Duration FULL = Duration.ofSeconds(30);
    private static final MirroredReports.Seen RUNNING = new MirroredReports.Seen("att-1", "41", RemoteWorkloadPhase.RUNNING, false,
            "a", null, false);

    private final MirroredReports<String> reports = new MirroredReports<>(FULL);

    /** Mirrors RUNNING for workload w on cluster a in a first listing at T0. */
    private void mirroredOnce() {
        reports.listingBegins("a", T0);
        assertThat(reports.mustMirror("a", "w", RUNNING)).as("a leader's first listing mirrors every report").isTrue();
        reports.mirrored("a", "w", RUNNING);
        reports.listingEnds("a", Set.of("w"));
    }

    private boolean nextListingMirrors(MirroredReports.Seen seen, Instant at) {
        reports.listingBegins("a", at);
        return reports.mustMirror("a", "w", seen);
    }

    static Stream<Arguments> reports() {
        return Stream.of(
                row("the same report and attempt state", s -> s, false),
                row("a new resourceVersion (status or spec written)", s -> with(s, "42", s.phase(), s.winner(), s.committedTo(), s.draining()), true),
                row("another attempt of the workload", s -> new MirroredReports.Seen("att-2", s.resourceVersion(), s.phase(), false, s.winner(), null, false), true),
                row("no resourceVersion", s -> with(s, null, s.phase(), s.winner(), s.committedTo(), s.draining()), true),
                row("the attempt's winner changed", s -> with(s, s.resourceVersion(), s.phase(), "b", s.committedTo(), s.draining()), true),
                row("a copy chosen for commit", s -> with(s, s.resourceVersion(), s.phase(), s.winner(), "b", s.draining()), true),
                row("the attempt is being drained", s -> with(s, s.resourceVersion(), s.phase(), s.winner(), s.committedTo(), true), true),
                row("Reserved: commits are decided (and retried) by time", s -> with(s, s.resourceVersion(), RemoteWorkloadPhase.RESERVED,
                        s.winner(), s.committedTo(), s.draining()), true),
                row("provisioning progress: decided against the check's retries", s -> new MirroredReports.Seen(s.attemptId(),
                        s.resourceVersion(), s.phase(), true, s.winner(), null, false), true));
    }

    private static Arguments row(String name, UnaryOperator<MirroredReports.Seen> next, boolean mirrored) {
        return Arguments.of(name, next, mirrored);
    }

    private static MirroredReports.Seen with(MirroredReports.Seen s, String rv, String phase, String winner, String committedTo, boolean draining) {
        return new MirroredReports.Seen(s.attemptId(), rv, phase, s.provisioning(), winner, committedTo, draining);
    }

    @ParameterizedTest(name = "{0}: mirrored again = {2}")
    @MethodSource("reports")
    void aReportIsMirroredAgainOnlyWhenWhatTheMirrorReadsChanged(String name, UnaryOperator<MirroredReports.Seen> next, boolean mirrored) {
        mirroredOnce();

        assertThat(nextListingMirrors(next.apply(RUNNING), T0.plusSeconds(1))).as(name).isEqualTo(mirrored);
    }

    @Test
    void phasesThatAskForMoreAreNeverRemembered() {
        for (String phase : List.of(RemoteWorkloadPhase.RESERVED, RemoteWorkloadPhase.SUCCEEDED, RemoteWorkloadPhase.FAILED,
                RemoteWorkloadPhase.STOPPED, RemoteWorkloadPhase.REJECTED)) {
            MirroredReports.Seen seen = with(RUNNING, "7", phase, null, null, false);
            reports.listingBegins("a", T0);
            reports.mirrored("a", "w", seen);
            assertThat(reports.mustMirror("a", "w", seen)).as(phase).isTrue();
        }
        assertThat(reports.remembered()).isZero();
        for (String phase : List.of(RemoteWorkloadPhase.PENDING, RemoteWorkloadPhase.ADMITTED, RemoteWorkloadPhase.RUNNING)) {
            assertThat(MirroredReports.settles(phase, false)).as(phase).isTrue();
            assertThat(MirroredReports.settles(phase, true)).as(phase + " with provisioning").isFalse();
        }
    }

    @Test
    void aWorkloadStatusWrittenByTheControllerMirrorsItsReportsOnEveryClusterAgain() {
        mirroredOnce();
        reports.mirrored("b", "w", RUNNING);
        reports.mirrored("b", "other", RUNNING);

        reports.workloadChanged("w");

        assertThat(nextListingMirrors(RUNNING, T0.plusSeconds(1))).isTrue();
        assertThat(reports.mustMirror("b", "w", RUNNING)).isTrue();
        assertThat(reports.mustMirror("b", "other", RUNNING)).as("another workload").isFalse();
    }

    @Test
    void aReportMissingFromAListingIsForgottenSoItsReturnIsMirrored() {
        mirroredOnce();
        reports.listingBegins("a", T0.plusSeconds(1));
        reports.listingEnds("a", Set.of());

        assertThat(reports.remembered()).isZero();
        assertThat(nextListingMirrors(RUNNING, T0.plusSeconds(2))).isTrue();
    }

    @Test
    void everyFullMirrorIntervalAListingMirrorsEveryReport() {
        mirroredOnce();

        assertThat(nextListingMirrors(RUNNING, T0.plus(FULL).minusMillis(1))).isFalse();
        assertThat(nextListingMirrors(RUNNING, T0.plus(FULL))).as("resync").isTrue();
        reports.mirrored("a", "w", RUNNING);
        assertThat(nextListingMirrors(RUNNING, T0.plus(FULL).plusSeconds(1))).as("the interval starts again").isFalse();
    }

    @Test
    void aConnectionChangeOrANewLeaderMirrorsEveryReport() {
        mirroredOnce();
        reports.forgetCluster("a");
        assertThat(nextListingMirrors(RUNNING, T0.plusSeconds(1))).as("reconnected").isTrue();

        MirroredReports<String> newLeader = new MirroredReports<>(FULL);
        newLeader.listingBegins("a", T0.plusSeconds(1));
        assertThat(newLeader.mustMirror("a", "w", RUNNING)).as("a new leader remembers nothing").isTrue();
    }

    @Test
    void clustersAreRememberedApart() {
        mirroredOnce();
        reports.listingBegins("b", T0);

        assertThat(reports.mustMirror("b", "w", RUNNING)).isTrue();
        assertThat(nextListingMirrors(RUNNING, T0.plusSeconds(1))).isFalse();
    }
}
