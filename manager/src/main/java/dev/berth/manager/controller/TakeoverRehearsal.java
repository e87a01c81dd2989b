package dev.berth.manager.controller;

import dev.berth.manager.core.AdmissionController;
import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.store.ObjectStore;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A follower rehearses the read-only part of taking office, so that a new leader's own recovery is not the
 * first run of that code in this JVM: it recovers the shared store into a throwaway admission controller
 * ({@link StateRecovery}) and runs one scheduling pass over it, whose status sink discards every result.
 * It also loads the schema catalog a leader validates writes against (once per JVM). Nothing is written,
 * no epoch raised, no worker cluster touched.
 *
 * <p>A scratch manager built on the follower as well (over a private in-memory store, to warm the rest of the
 * manager's construction) was tried and dropped: at start on a saturated node it took 4.5-6.2 s of CPU, during
 * which both replicas missed Hazelcast heartbeats and split (drill 5, 2026-12-02).
 */
public final class TakeoverRehearsal {
    private static final Logger log = LoggerFactory.getLogger(TakeoverRehearsal.class);

    private TakeoverRehearsal() {}

    /** One read-only rehearsal over the shared store as it is now; returns how many workloads it recovered. */
    public static int rehearse(ObjectStore store, Clock clock, SchedulerOptions options, JobIntegrationSettings jobIntegration) {
        long started = System.nanoTime();
        // a new leader validates its first writes (the namespaces it ensures, the first submissions) against the
        // vendored schemas: loaded once per JVM, over a second of CPU cold, paid here instead of in the handover
        dev.berth.manager.schema.SchemaCatalog.bundled();
        warmConstruction(options, jobIntegration);
        AdmissionController controller = new AdmissionController(clock, options, ManagerState.DISCARD);
        int workloads = StateRecovery.rebuild(store, controller, jobIntegration.resources()).size();
        controller.schedule();
        log.atDebug().addKeyValue("workloads", workloads).addKeyValue("tookMillis", (System.nanoTime() - started) / 1_000_000)
                .log("takeover rehearsed (read-only)");
        return workloads;
    }

    /**
     * The parts of a manager's construction that start no thread and touch only a private in-memory store: its metrics
     * registry and gauges, and the resource registry with its hooks (measured cold after the recovery rehearsal: about
     * 130 ms of the 200 ms a first construction took, then a few ms). Not a whole scratch manager (see above).
     */
    private static void warmConstruction(SchedulerOptions options, JobIntegrationSettings jobIntegration) {
        new dev.berth.manager.metrics.BerthMetrics(options.metrics(), options.fairSharing());
        dev.berth.manager.store.MemoryObjectStore scratch = new dev.berth.manager.store.MemoryObjectStore(Clock.systemUTC());
        try {
            ManagerState state = ManagerState.readOnly(scratch, jobIntegration);
            new dev.berth.manager.api.ObjectService(scratch, ManagerResources.registry(state),
                    new dev.berth.manager.api.NamespaceLifecycle(scratch), Clock.systemUTC());
        } finally {
            scratch.close();
        }
    }
}
