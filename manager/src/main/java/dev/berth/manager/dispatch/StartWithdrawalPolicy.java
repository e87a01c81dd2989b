package dev.berth.manager.dispatch;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Issue 20, rule 1: a worker that cannot start an attempt does not keep it. Decides which attempts are
 * due for withdrawal, what a cluster's report means for a withdrawal under way, and when the copy's
 * lease has surely run out. Pure: the caller passes the time.
 *
 * <p>An attempt is due when it is not being withdrawn or drained already, it was dispatched at least
 * {@link StartTimeoutOptions#startTimeout()} ago, and no copy has started: every copy was last reported
 * Pending by its agent (accepted, waiting for room), or Admitted with none of its pods running and a pod the
 * cluster's scheduler found no node for. The second case is capacity taken after the agent admitted the copy
 * (another tenant's pods bound first by the cluster's own scheduler, a node drained): Kueue's
 * waitForPodsReady answers it with an eviction; Berth withdraws the copy and places it elsewhere, keeping the
 * quota. A copy never reported is left to the missing-listing and unconfirmed-create rules: nothing shows
 * that its agent holds it.
 */
public final class StartWithdrawalPolicy {
    /** The dispatch history outcome of a withdrawn attempt. */
    public static final String START_TIMEOUT = "StartTimeout";
    /** The phases as the agent reports them (protocol's RemoteWorkloadPhase; repeated here to keep dispatch free of the wire module). */
    static final String PENDING = "Pending";
    static final String ADMITTED = "Admitted";
    private static final List<String> STARTED = List.of("Admitted", "Running", "Succeeded", "Failed");
    private static final List<String> GONE = List.of("Stopped", "Rejected");

    /**
     * What the latest listing of one cluster said of the copy: its phase and the agent's reason (both may be
     * null), and whether its pods are unschedulable (admitted, none running, at least one found no node).
     */
    public record CopyReport(String cluster, String phase, String reason, boolean unschedulable, boolean provisioning) {
        public CopyReport(String cluster, String phase, String reason) {
            this(cluster, phase, reason, false, false);
        }

        public CopyReport(String cluster, String phase, String reason, boolean unschedulable) {
            this(cluster, phase, reason, unschedulable, false);
        }

        /**
         * Accepted but not started: waiting for room in the agent, or admitted with pods no node can take. A copy
         * waiting for a live ProvisioningRequest of its cluster is waiting for capacity on purpose, not stranded:
         * its provisioning check decides (Retry, Rejected), never the start timeout.
         */
        boolean notStarted() {
            if (provisioning) return false;
            return PENDING.equals(phase) || (ADMITTED.equals(phase) && unschedulable);
        }
    }

    /**
     * An attempt as seen for the start timeout. {@code dispatchedAt} is when this manager dispatched (or recovered)
     * it; {@code admitted} when an agent admitted a copy; {@code busy} when it is being withdrawn or drained.
     */
    public record StartingAttempt(String attemptId, Instant dispatchedAt, boolean admitted, boolean busy, List<CopyReport> copies) {}

    /** What to do with a withdrawal under way, given what a cluster reported of the copy. */
    public enum Verdict {
        /** Still pending there: wait for the agent to notice the expired lease. */
        WAIT,
        /** Stopped, rejected or gone from the listing: the copy can no longer start there. */
        CONFIRMED,
        /** The agent admitted it before the expired lease reached it: the copy stays, the withdrawal is called off. */
        CANCEL
    }

    private final StartTimeoutOptions options;

    public StartWithdrawalPolicy(StartTimeoutOptions options) {
        this.options = options;
    }

    public StartTimeoutOptions options() {
        return options;
    }

    /** The withdrawal message when the attempt is due now ("withdrawn from h100 after 5m: <agent's reason>"), else empty. */
    public Optional<String> due(StartingAttempt attempt, Instant now) {
        if (!options.enabled() || attempt.busy() || attempt.dispatchedAt() == null || attempt.copies().isEmpty()) {
            return Optional.empty();
        }
        if (now.isBefore(attempt.dispatchedAt().plus(options.startTimeout()))) return Optional.empty();
        for (CopyReport copy : attempt.copies()) {
            if (!copy.notStarted()) return Optional.empty();
            // an admitted attempt stays unless its admitted copy is the one that cannot be scheduled
            if (attempt.admitted() && !copy.unschedulable()) return Optional.empty();
        }
        return Optional.of(message(attempt.copies(), Duration.between(attempt.dispatchedAt(), now)));
    }

    /** The verdict for one copy under withdrawal; {@code listed} false when the cluster's listing no longer shows it. */
    public Verdict reported(boolean listed, String phase) {
        return reported(listed, phase, false);
    }

    /**
     * As {@link #reported(boolean, String)}, for a copy whose pods may be unschedulable: an admitted copy still
     * waiting for a node is not a start, so the withdrawal waits for its agent to stop it (its lease is expired).
     */
    public Verdict reported(boolean listed, String phase, boolean unschedulable) {
        if (!listed || (phase != null && GONE.contains(phase))) return Verdict.CONFIRMED;
        if (ADMITTED.equals(phase) && unschedulable) return Verdict.WAIT;
        return phase != null && STARTED.contains(phase) ? Verdict.CANCEL : Verdict.WAIT;
    }

    /** True once the copy's lease plus margin has run out: its agent refuses to start it even if it never saw the withdrawal. */
    public static boolean leaseRanOut(Instant leaseGoneAt, Instant now) {
        return !now.isBefore(leaseGoneAt);
    }

    /** Until when a workload keeps away from a cluster it was withdrawn from at {@code withdrawnAt}. */
    public Instant avoidUntil(Instant withdrawnAt) {
        return withdrawnAt.plus(options.avoidFor());
    }

    static String message(List<CopyReport> copies, Duration waited) {
        String clusters = String.join(", ", copies.stream().map(CopyReport::cluster).toList());
        String reason = copies.stream().map(CopyReport::reason).filter(r -> r != null && !r.isBlank()).findFirst()
                .orElse("not started by the agent");
        return "withdrawn from " + clusters + " after " + human(waited) + ": " + reason;
    }

    /** 5m, 90s, 1h5m: the wording operators use for flags. */
    static String human(Duration duration) {
        long seconds = Math.max(0, duration.toSeconds());
        long hours = seconds / 3600;
        long minutes = seconds % 3600 / 60;
        long rest = seconds % 60;
        StringBuilder text = new StringBuilder();
        if (hours > 0) text.append(hours).append('h');
        if (minutes > 0) text.append(minutes).append('m');
        if (rest > 0 || text.length() == 0) text.append(rest).append('s');
        return text.toString();
    }
}
