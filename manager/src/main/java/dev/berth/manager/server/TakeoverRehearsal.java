package dev.berth.manager.server;

import dev.berth.manager.core.AdmissionController;
import dev.berth.manager.core.QueueStatus;
import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.core.StatusSink;
import dev.berth.manager.core.WorkloadStatus;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.store.MemoryObjectStore;
import dev.berth.manager.store.ObjectStore;
import java.time.Clock;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A follower rehearses taking office without touching anything a leader owns, so that a new leader's own
 * takeover is not the first run of that code in this JVM (drill 5: 1.7-3.3 s between the epoch raise and the
 * state recovery alone, building the manager's parts cold on a loaded node). Two parts:
 * <ol>
 *   <li>a scratch manager over a private in-memory store: built (its epoch raised in that store only), never
 *       started (no API port, no worker cluster, no timer), closed;</li>
 *   <li>a read-only recovery of the shared store into a throwaway admission controller ({@link StateRecovery})
 *       and one scheduling pass over it, whose status sink discards every result: nothing is written.</li>
 * </ol>
 */
public final class TakeoverRehearsal {
    private static final Logger log = LoggerFactory.getLogger(TakeoverRehearsal.class);

    /** Discards every result: a rehearsal decides, it never writes. */
    private static final StatusSink DISCARD = new StatusSink() {
        @Override
        public void workloadChanged(WorkloadKey key, boolean active, WorkloadStatus status) {
        }

        @Override
        public void clusterQueueChanged(String name, QueueStatus status) {
        }

        @Override
        public void localQueueChanged(String namespace, String name, QueueStatus status) {
        }

        @Override
        public void workloadExpired(WorkloadKey key) {
        }
    };

    private TakeoverRehearsal() {}

    /**
     * One rehearsal over the shared store as it is now; returns how many workloads it recovered.
     *
     * @param scratchManagers builds a manager over a given store, as a new leader's would be built (never started here)
     */
    public static int rehearse(ObjectStore store, Clock clock, SchedulerOptions options, JobIntegrationSettings jobIntegration,
                               Function<ObjectStore, BerthManager> scratchManagers) {
        try (BerthManager scratch = scratchManagers.apply(new MemoryObjectStore(clock))) {
            scratch.fencingEpoch();
        }
        return rehearse(store, clock, options, jobIntegration);
    }

    /** The read-only recovery alone (part 2). */
    public static int rehearse(ObjectStore store, Clock clock, SchedulerOptions options, JobIntegrationSettings jobIntegration) {
        long started = System.nanoTime();
        AdmissionController controller = new AdmissionController(clock, options, DISCARD);
        int workloads = StateRecovery.rebuild(store, controller, jobIntegration.resources()).size();
        controller.schedule();
        log.atDebug().addKeyValue("workloads", workloads).addKeyValue("tookMillis", (System.nanoTime() - started) / 1_000_000)
                .log("takeover rehearsed (read-only)");
        return workloads;
    }
}
