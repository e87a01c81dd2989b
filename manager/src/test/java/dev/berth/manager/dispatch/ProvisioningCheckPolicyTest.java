package dev.berth.manager.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.dispatch.ProvisioningCheckPolicy.Condition;
import dev.berth.manager.dispatch.ProvisioningCheckPolicy.RequestReport;
import dev.berth.manager.dispatch.ProvisioningCheckPolicy.Verdict;
import dev.berth.manager.model.ProvisioningConfig.RetryStrategy;
import dev.berth.manager.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The provisioning check's state machine and backoff, one behaviour of Kueue's provisioning controller per test. */
class ProvisioningCheckPolicyTest {
    private static final RetryStrategy DEFAULTS = RetryStrategy.DEFAULT;
    private final MutableClock clock = new MutableClock(Instant.parse("2026-12-02T07:00:00Z"));

    @Test
    void aRequestWithoutConditionsOrOnlyAcceptedKeepsTheCheckPending() {
        assertThat(decide(report(1), 0).state()).isEqualTo("Pending");
        Verdict accepted = decide(report(1, "Accepted", true, ""), 0);
        assertThat(accepted.state()).isEqualTo("Pending");
        assertThat(accepted.message()).isEqualTo("ProvisioningRequest team-a/job-a-scale-up-1 on cluster gpu-east Accepted, not yet Provisioned (attempt 1 of 4)");
    }

    @Test
    void provisionedMakesTheCheckReadyWithTheAutoscalersMessage() {
        Verdict ready = decide(report(1, "Accepted", true, "", "Provisioned", true, "capacity is available"), 0);
        assertThat(ready.state()).isEqualTo("Ready");
        assertThat(ready.message()).isEqualTo("capacity is available");
    }

    @Test
    void aFailedRequestRetriesWithDoublingBackoffUntilTheLimitThenRejects() {
        Verdict first = decide(report(1, "Failed", true, "out of stock"), 0);
        assertThat(first).isEqualTo(new Verdict("Retry", "Retrying after failure: out of stock", 60));
        assertThat(decide(report(2, "Failed", true, "out of stock"), 1).requeueAfterSeconds()).isEqualTo(120);
        assertThat(decide(report(3, "Failed", true, "out of stock"), 2).requeueAfterSeconds()).isEqualTo(240);
        assertThat(decide(report(4, "Failed", true, "out of stock"), 3)).isEqualTo(new Verdict("Rejected", "out of stock", null));
    }

    @Test
    void theBackoffStopsAtBackoffMaxSeconds() {
        RetryStrategy strategy = new RetryStrategy(10, 60, 300);
        assertThat(ProvisioningCheckPolicy.backoffSeconds(strategy, 0)).isEqualTo(60);
        assertThat(ProvisioningCheckPolicy.backoffSeconds(strategy, 2)).isEqualTo(240);
        assertThat(ProvisioningCheckPolicy.backoffSeconds(strategy, 3)).isEqualTo(300);
        assertThat(ProvisioningCheckPolicy.backoffSeconds(strategy, 9)).isEqualTo(300);
    }

    @Test
    void backoffLimitCountZeroRejectsTheFirstFailure() {
        Verdict verdict = ProvisioningCheckPolicy.decide(report(1, "Failed", true, "no"), new RetryStrategy(0, 1, 1), 0, false);
        assertThat(verdict.state()).isEqualTo("Rejected");
    }

    @Test
    void anOldFailedRequestWhoseRetryWasCountedIsNotRetriedAgain() {
        Verdict verdict = decide(report(1, "Failed", true, "out of stock"), 1);
        assertThat(verdict.state()).isEqualTo("Pending");
    }

    @Test
    void capacityRevokedRejectsAndBookingExpiredRetriesOnlyBeforeAdmission() {
        assertThat(decide(report(1, "Provisioned", true, "", "CapacityRevoked", true, "nodes gone"), 0).state()).isEqualTo("Rejected");
        RequestReport expired = report(1, "Provisioned", true, "", "BookingExpired", true, "booking expired");
        assertThat(ProvisioningCheckPolicy.decide(expired, DEFAULTS, 0, false))
                .isEqualTo(new Verdict("Retry", "Retrying after booking expired: booking expired", 60));
        assertThat(ProvisioningCheckPolicy.decide(expired, DEFAULTS, 0, true).state()).isEqualTo("Ready");
    }

    @Test
    void theWaitingLineSaysWhereWhatAndHowLongAsTimeMoves() {
        RequestReport accepted = report(2, "Accepted", true, "");
        clock.advance(Duration.ofSeconds(40));
        assertThat(ProvisioningCheckPolicy.waitingLine(accepted, DEFAULTS, clock.instant())).isEqualTo(
                "waiting for capacity on cluster gpu-east: ProvisioningRequest team-a/job-a-scale-up-2 Accepted, not yet Provisioned, for 40s (attempt 2 of 4)");
        clock.advance(Duration.ofSeconds(110));
        assertThat(ProvisioningCheckPolicy.waitingLine(report(2), DEFAULTS, clock.instant()))
                .endsWith("created, not yet Accepted, for 2m30s (attempt 2 of 4)");
    }

    @Test
    void requestsAreNamedAsKueueNamesThemWithAHashWhenTooLong() {
        assertThat(ProvisioningRequestNames.request("job-a", "scale-up", 3)).isEqualTo("job-a-scale-up-3");
        assertThat(ProvisioningRequestNames.podTemplate("job-a-scale-up-3", "main")).isEqualTo("ppt-job-a-scale-up-3-main");
        String longName = ProvisioningRequestNames.request("w".repeat(250), "c", 1);
        assertThat(longName).hasSize(253).startsWith("w".repeat(247) + "-");
        assertThat(ProvisioningCheckPolicy.nextAttempt(0)).isEqualTo(1);
        assertThat(ProvisioningCheckPolicy.nextAttempt(2)).isEqualTo(3);
    }

    private Verdict decide(RequestReport report, int retryCount) {
        return ProvisioningCheckPolicy.decide(report, DEFAULTS, retryCount, false);
    }

    /** A report of attempt n created at the clock's start, with (type, status, message) triples. */
    private RequestReport report(int attempt, Object... conditions) {
        Map<String, Condition> byType = new LinkedHashMap<>();
        for (int i = 0; i < conditions.length; i += 3) {
            byType.put((String) conditions[i], new Condition((Boolean) conditions[i + 1], "Reason", (String) conditions[i + 2]));
        }
        return new RequestReport("gpu-east", "team-a", ProvisioningRequestNames.request("job-a", "scale-up", attempt), attempt,
                Instant.parse("2026-12-02T07:00:00Z"), byType);
    }
}
