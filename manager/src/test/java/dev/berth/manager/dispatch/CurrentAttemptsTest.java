package dev.berth.manager.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.manager.model.WorkloadKey;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CurrentAttemptsTest {
    private static final Instant T0 = Instant.parse("2026-12-01T12:00:00Z");
    private static final WorkloadKey TRAIN = WorkloadKey.of("team", "train");
    private static final WorkloadKey EVAL = WorkloadKey.of("team", "eval");

    private static DispatchAttempt attempt(String id) {
        return DispatchAttempt.dispatched(id, 1, Duration.ofSeconds(60), new PlacementRequest(TRAIN, 0, List.of()), T0);
    }

    @Test
    void aNewAttemptReplacesTheWorkloadsCurrentOneAndAnswersForAnOlderOneFindItNoLongerCurrent() {
        CurrentAttempts attempts = new CurrentAttempts();
        DispatchAttempt first = attempt("a1");
        DispatchAttempt second = attempt("a2");
        attempts.begin(TRAIN, first);
        attempts.retire(TRAIN, first);
        attempts.begin(TRAIN, second);

        assertThat(attempts.get(TRAIN)).isSameAs(second);
        assertThat(attempts.isCurrent(TRAIN, first)).isFalse();
        assertThat(attempts.isCurrent(TRAIN, second)).isTrue();
    }

    @Test
    void aRetiredIdIsNeverCurrentAgain() {
        CurrentAttempts attempts = new CurrentAttempts();
        DispatchAttempt first = attempt("a1");
        attempts.begin(TRAIN, first);
        attempts.retire(TRAIN, first);

        assertThat(attempts.has(TRAIN)).isFalse();
        assertThat(attempts.retired("a1")).isTrue();
        assertThat(attempts.retired("a2")).isFalse();
        assertThatThrownBy(() -> attempts.begin(TRAIN, first)).hasMessageContaining("a1");
    }

    @Test
    void retiringAnOlderAttemptLeavesTheCurrentOneInPlace() {
        CurrentAttempts attempts = new CurrentAttempts();
        DispatchAttempt older = attempt("a1");
        DispatchAttempt current = attempt("a2");
        attempts.begin(TRAIN, current);
        attempts.retire(TRAIN, older);

        assertThat(attempts.get(TRAIN)).isSameAs(current);
        assertThat(attempts.retired("a1")).isTrue();
    }

    @Test
    void entriesAreACopyThatADecisionMayGoThroughWhileItRetiresAttempts() {
        CurrentAttempts attempts = CurrentAttempts.of(Map.of(TRAIN, attempt("a1"), EVAL, attempt("a2")));
        for (Map.Entry<WorkloadKey, DispatchAttempt> entry : attempts.entries()) attempts.retire(entry.getKey(), entry.getValue());

        assertThat(attempts.size()).isZero();
        assertThat(attempts.workloads()).isEmpty();
        assertThat(attempts.all()).isEmpty();
    }
}
