package dev.berth.manager.dispatch;

import java.time.Duration;
import java.time.Instant;

/**
 * When a workload on a lost cluster is evicted and may run elsewhere. Pure. A workload is moved at
 * the later of: lostSince + workerLostTimeout (the cluster had its chance to come back), and
 * lastLeaseRenewal + lease + margin (the agent has surely stopped the old copy, even if the cluster
 * was only cut off from the manager). A cluster that is not lost moves nothing: transient blips
 * (Degraded) never evict.
 */
public final class LostClusterPolicy {
    private final FailoverOptions options;

    public LostClusterPolicy(FailoverOptions options) {
        this.options = options;
    }

    /** The instant from which the workload may be evicted and redispatched. */
    public Instant evictAt(Instant lostSince, Instant lastLeaseRenewal, Duration lease) {
        Instant timedOut = lostSince.plus(options.workerLostTimeout());
        Instant leaseGone = lastLeaseRenewal.plus(lease).plus(options.leaseMargin());
        return timedOut.isAfter(leaseGone) ? timedOut : leaseGone;
    }

    public boolean shouldEvict(ClusterHealth health, Instant lostSince, Instant lastLeaseRenewal, Duration lease, Instant now) {
        if (!health.lost() || lostSince == null) return false;
        return !now.isBefore(evictAt(lostSince, lastLeaseRenewal, lease));
    }

    /**
     * Whether the manager still renews leases on a cluster lost since lostSince: until
     * workerLostTimeout - lease - margin has passed, so a blip shorter than that never expires a lease,
     * and at workerLostTimeout the old copy has surely stopped. A cluster that is not lost: always.
     */
    public boolean keepRenewing(Instant lostSince, Duration lease, Instant now) {
        if (lostSince == null) return true;
        return now.isBefore(lostSince.plus(options.workerLostTimeout()).minus(lease).minus(options.leaseMargin()));
    }

    /** The eviction message: which cluster, why, and since when. */
    public static String message(String cluster, HealthAssessment health, Instant lostSince, Duration workerLostTimeout) {
        return "worker cluster " + cluster + " lost (" + health.health().reason() + ": " + health.message() + ") since "
                + lostSince + ", longer than workerLostTimeout " + workerLostTimeout.toSeconds() + "s; requeued for another cluster";
    }

    public Duration workerLostTimeout() {
        return options.workerLostTimeout();
    }
}
