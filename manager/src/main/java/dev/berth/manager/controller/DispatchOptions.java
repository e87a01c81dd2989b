package dev.berth.manager.controller;

import dev.berth.manager.clusters.ResilienceOptions;
import dev.berth.manager.dispatch.FailoverOptions;
import dev.berth.manager.dispatch.PlacementOptions;
import dev.berth.manager.dispatch.StartTimeoutOptions;
import dev.berth.manager.dispatch.UnservedFlavorOptions;
import dev.berth.manager.dispatch.WorkQueueOptions;
import java.time.Duration;

/**
 * Dispatch knobs: the manager's identity on worker clusters (label berth.dev/origin), the dispatch
 * lease, how often worker clusters are polled (heartbeat, capacity, attempts; stale attempts are
 * garbage-collected on each listing), placement's own options, failover (workerLostTimeout, health
 * tolerances) and the per-cluster resilience4j settings. The lease must be shorter than
 * workerLostTimeout, and a renewal's whole retry budget must fit in the lease after one renewal interval:
 * checked here, so a bad configuration fails at load with a clear message. The work queue's retry backoff
 * and resync interval come next; then how long quota may be held in a flavor no connected cluster offers
 * (issue 20 rule 2), and last the start timeout of an attempt no worker started (issue 20 rule 1).
 */
public record DispatchOptions(String managerId, Duration leaseDuration, Duration pollInterval, PlacementOptions placement,
                              FailoverOptions failover, ResilienceOptions resilience, WorkQueueOptions workQueue,
                              UnservedFlavorOptions unservedFlavors, StartTimeoutOptions startTimeout) {
    public static final DispatchOptions DEFAULTS = new DispatchOptions("berth-manager", Duration.ofSeconds(60),
            Duration.ofSeconds(1), PlacementOptions.DEFAULTS);

    public DispatchOptions {
        failover.validateLease(leaseDuration);
        failover.validateRenewal(leaseDuration, renewEvery(leaseDuration), resilience.retryBudget());
    }

    public DispatchOptions(String managerId, Duration leaseDuration, Duration pollInterval, PlacementOptions placement,
                           FailoverOptions failover, ResilienceOptions resilience, WorkQueueOptions workQueue,
                           UnservedFlavorOptions unservedFlavors) {
        this(managerId, leaseDuration, pollInterval, placement, failover, resilience, workQueue, unservedFlavors,
                StartTimeoutOptions.DEFAULTS);
    }

    public DispatchOptions(String managerId, Duration leaseDuration, Duration pollInterval, PlacementOptions placement,
                           FailoverOptions failover, ResilienceOptions resilience, WorkQueueOptions workQueue,
                           StartTimeoutOptions startTimeout) {
        this(managerId, leaseDuration, pollInterval, placement, failover, resilience, workQueue, UnservedFlavorOptions.DEFAULTS,
                startTimeout);
    }

    public DispatchOptions(String managerId, Duration leaseDuration, Duration pollInterval, PlacementOptions placement,
                           FailoverOptions failover, ResilienceOptions resilience, WorkQueueOptions workQueue) {
        this(managerId, leaseDuration, pollInterval, placement, failover, resilience, workQueue, UnservedFlavorOptions.DEFAULTS,
                StartTimeoutOptions.DEFAULTS);
    }

    /** How often every current attempt's lease is renewed. */
    public Duration renewEvery() {
        return renewEvery(leaseDuration);
    }

    private static Duration renewEvery(Duration lease) {
        return Duration.ofMillis(Math.max(10, lease.toMillis() / 3));
    }

    public DispatchOptions(String managerId, Duration leaseDuration, Duration pollInterval, PlacementOptions placement,
                           FailoverOptions failover, ResilienceOptions resilience) {
        this(managerId, leaseDuration, pollInterval, placement, failover, resilience, WorkQueueOptions.DEFAULTS);
    }

    public DispatchOptions(String managerId, Duration leaseDuration, Duration pollInterval, PlacementOptions placement) {
        this(managerId, leaseDuration, pollInterval, placement, FailoverOptions.DEFAULTS, ResilienceOptions.DEFAULTS);
    }

    public DispatchOptions withFailover(FailoverOptions next) {
        return new DispatchOptions(managerId, leaseDuration, pollInterval, placement, next, resilience, workQueue, unservedFlavors, startTimeout);
    }

    public DispatchOptions withLeaseDuration(Duration next) {
        return new DispatchOptions(managerId, next, pollInterval, placement, failover, resilience, workQueue, unservedFlavors, startTimeout);
    }

    public DispatchOptions withResilience(ResilienceOptions next) {
        return new DispatchOptions(managerId, leaseDuration, pollInterval, placement, failover, next, workQueue, unservedFlavors, startTimeout);
    }

    public DispatchOptions withWorkQueue(WorkQueueOptions next) {
        return new DispatchOptions(managerId, leaseDuration, pollInterval, placement, failover, resilience, next, unservedFlavors, startTimeout);
    }

    public DispatchOptions withPlacement(PlacementOptions next) {
        return new DispatchOptions(managerId, leaseDuration, pollInterval, next, failover, resilience, workQueue, unservedFlavors, startTimeout);
    }

    public DispatchOptions withUnservedFlavors(UnservedFlavorOptions next) {
        return new DispatchOptions(managerId, leaseDuration, pollInterval, placement, failover, resilience, workQueue, next, startTimeout);
    }

    /** Issue 20 rule 1: how long an unstarted copy may wait on a worker before it is withdrawn (--dispatch-start-timeout). */
    public DispatchOptions withStartTimeout(StartTimeoutOptions next) {
        return new DispatchOptions(managerId, leaseDuration, pollInterval, placement, failover, resilience, workQueue, unservedFlavors, next);
    }
}
