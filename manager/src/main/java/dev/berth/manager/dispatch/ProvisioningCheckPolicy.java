package dev.berth.manager.dispatch;

import dev.berth.manager.model.ProvisioningConfig.RetryStrategy;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * The state of a provisioning admission check (kueue.x-k8s.io/provisioning-request) from what the worker's
 * agent reports of the ProvisioningRequest it made, as Kueue's provisioning controller decides it
 * (syncCheckStates): Failed retries with backoff while the attempt is at most backoffLimitCount, else
 * Rejected; CapacityRevoked is Rejected; BookingExpired before admission retries like Failed; Provisioned
 * is Ready; Accepted or no condition yet is Pending. Pure: the caller passes the time.
 */
public final class ProvisioningCheckPolicy {
    public static final String PENDING = "Pending";
    public static final String READY = "Ready";
    public static final String RETRY = "Retry";
    public static final String REJECTED = "Rejected";
    /** Kueue's message when no pod set needs provisioned capacity, or the cluster had room without it. */
    public static final String NO_REQUEST_NEEDED = "the provisioning request is not needed";
    /** Kueue's message while the check's config is missing. */
    public static final String CHECK_INACTIVE = "the check is not active";

    /** One condition of the request as the autoscaler set it. */
    public record Condition(boolean isTrue, String reason, String message) {}

    /**
     * The request as the agent reported it: on which cluster, its namespace and name, attempt, when it was
     * created, and its conditions by type (Accepted, Provisioned, Failed, BookingExpired, CapacityRevoked).
     */
    public record RequestReport(String cluster, String namespace, String name, int attempt, Instant createdAt,
                                Map<String, Condition> conditions) {
        public RequestReport {
            conditions = Map.copyOf(conditions);
        }

        boolean isTrue(String type) {
            Condition condition = conditions.get(type);
            return condition != null && condition.isTrue();
        }

        String message(String type) {
            Condition condition = conditions.get(type);
            return condition == null || condition.message() == null ? "" : condition.message();
        }
    }

    /** The check's new state, its message, and for Retry the wait before the workload is queued again. */
    public record Verdict(String state, String message, Integer requeueAfterSeconds) {}

    private ProvisioningCheckPolicy() {}

    /**
     * The check's state for this report. {@code retryCount} is how many Retries the check already caused;
     * {@code admitted} whether the workload is admitted (BookingExpired then changes nothing).
     */
    public static Verdict decide(RequestReport report, RetryStrategy retry, int retryCount, boolean admitted) {
        if (report.isTrue("Failed")) return retryOrReject(report, retry, retryCount, "Retrying after failure: ", report.message("Failed"));
        if (report.isTrue("CapacityRevoked")) {
            return new Verdict(REJECTED, report.message("CapacityRevoked"), null);
        }
        if (report.isTrue("BookingExpired") && !admitted) {
            return retryOrReject(report, retry, retryCount, "Retrying after booking expired: ", report.message("BookingExpired"));
        }
        if (report.isTrue("Provisioned")) {
            String message = report.message("Provisioned");
            return new Verdict(READY, message.isEmpty() ? "provisioned by " + where(report) : message, null);
        }
        return new Verdict(PENDING, pendingMessage(report, retry), null);
    }

    /** Kueue's backoff for the (retryCount+1)-th Retry: base * 2^retryCount seconds, at most max, no jitter. */
    public static int backoffSeconds(RetryStrategy retry, int retryCount) {
        long seconds = retry.backoffBaseSeconds();
        for (int i = 0; i < retryCount && seconds < retry.backoffMaxSeconds(); i++) seconds *= 2;
        return (int) Math.min(seconds, retry.backoffMaxSeconds());
    }

    /** The attempt number of the next request: 1, then one more after each Retry (Kueue: retryCount + 1). */
    public static int nextAttempt(int retryCount) {
        return retryCount + 1;
    }

    /**
     * The waiting line for explain, with how long the request has been out:
     * "waiting for capacity on cluster X: ProvisioningRequest ns/name Accepted, not yet Provisioned, for 40s (attempt 2 of 4)".
     */
    public static String waitingLine(RequestReport report, RetryStrategy retry, Instant now) {
        String since = report.createdAt() == null ? "" : ", for " + human(Duration.between(report.createdAt(), now));
        return "waiting for capacity on cluster " + report.cluster() + ": ProvisioningRequest " + report.namespace() + "/" + report.name()
                + " " + progress(report) + since + " (attempt " + report.attempt() + " of " + retry.maxAttempts() + ")";
    }

    private static Verdict retryOrReject(RequestReport report, RetryStrategy retry, int retryCount, String prefix, String cause) {
        if (report.attempt() <= retry.backoffLimitCount()) {
            if (report.attempt() <= retryCount) {
                // an old request (its Retry was already counted): Kueue does not retry it again
                return new Verdict(PENDING, prefix + cause, null);
            }
            return new Verdict(RETRY, prefix + cause, backoffSeconds(retry, retryCount));
        }
        return new Verdict(REJECTED, cause, null);
    }

    private static String pendingMessage(RequestReport report, RetryStrategy retry) {
        String eta = report.message("Provisioned");
        return "ProvisioningRequest " + report.namespace() + "/" + report.name() + " on cluster " + report.cluster() + " "
                + progress(report) + " (attempt " + report.attempt() + " of " + retry.maxAttempts() + ")" + (eta.isEmpty() ? "" : ": " + eta);
    }

    private static String progress(RequestReport report) {
        if (report.isTrue("Accepted")) return "Accepted, not yet Provisioned";
        return "created, not yet Accepted";
    }

    private static String where(RequestReport report) {
        return "ProvisioningRequest " + report.namespace() + "/" + report.name() + " on cluster " + report.cluster();
    }

    static String human(Duration duration) {
        long seconds = Math.max(0, duration.toSeconds());
        if (seconds < 120) return seconds + "s";
        if (seconds < 7200) return (seconds / 60) + "m" + (seconds % 60 == 0 ? "" : (seconds % 60) + "s");
        return (seconds / 3600) + "h" + ((seconds % 3600) / 60) + "m";
    }
}
