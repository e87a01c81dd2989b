package dev.berth.manager.controller;

import dev.berth.manager.core.AdmissionController;
import dev.berth.manager.store.ObjectStore;
import java.util.Optional;

/**
 * The pass runner: when scheduling passes run, and how dispatch follows them. A change asks for a pass
 * ({@link #reschedule()}); the pass starts within the scheduling batch window and runs in slices; after
 * each slice dispatch reconciles, in rounds, with a slice after each round ({@link #dispatch}). Dispatch
 * never runs a slice itself. Lives on the state thread.
 */
final class SchedulingPasses {
    /** At most this many rounds of dispatch per reconcile, each followed by a scheduling slice. */
    static final int DISPATCH_ROUNDS = 10;

    /** Runs a task on the state thread after a delay; the manager's single state thread, or a test's queue. */
    interface StateThread {
        void runLater(Runnable task, long delayMillis);
    }

    private final ObjectStore store;
    private final AdmissionController controller;
    /**
     * Where batched passes and the rest of a long pass run. Empty (an API that only reads, unit tests of
     * the hooks): every change is decided at once, in a whole pass.
     */
    private final Optional<StateThread> stateThread;
    /** {@link dev.berth.manager.core.SchedulerOptions#schedulingBatchWindow()}, in milliseconds. */
    private final long batchWindowMillis;
    /** Reconciled after every slice of a pass. */
    private final DispatchPort dispatch;
    private boolean passQueued;

    SchedulingPasses(ObjectStore store, AdmissionController controller, Optional<StateThread> stateThread, long batchWindowMillis,
                     DispatchPort dispatch) {
        this.store = store;
        this.controller = controller;
        this.stateThread = stateThread;
        this.batchWindowMillis = batchWindowMillis;
        this.dispatch = dispatch;
    }

    /** Every pass whole and at once, nothing dispatched: an API that only reads, unit tests of the hooks. */
    static SchedulingPasses inline(ObjectStore store, AdmissionController controller) {
        return new SchedulingPasses(store, controller, Optional.empty(), 0, DispatchPort.NONE);
    }

    /**
     * Something changed that may let workloads in or out: schedule, then dispatch what was admitted.
     * With a batch window, the pass starts that long after the first change asks for it, and decides
     * every change that arrived meanwhile; without one, the first slice runs here, before the write
     * is answered. A pass longer than one slice goes on in later state-thread tasks
     * (see {@link AdmissionController#scheduleSlice()}).
     */
    void reschedule() {
        if (stateThread.isPresent() && batchWindowMillis > 0) {
            queuePass(batchWindowMillis);
        } else {
            runSlice();
        }
    }

    private void runSlice() {
        // the slice's writes and the dispatcher's (attempt records, check states) share one journal sync; the
        // creates they announce leave only after it (the worker clusters' send gate, RemoteCreates)
        inOneSync(() -> {
            scheduleSlice();
            dispatch(dispatch);
        });
        if (stateThread.isPresent() && controller.hasMoreToSchedule()) queuePass(0);
    }

    /**
     * Dispatch reconciles what changed, in rounds over the workloads ready, and after each round a
     * scheduling slice hands out the quota that round freed (at most {@link #DISPATCH_ROUNDS} rounds).
     */
    void dispatch(DispatchPort port) {
        if (!port.roundsStart()) return;
        for (int round = 0; round < DISPATCH_ROUNDS && port.round(); round++) scheduleSlice();
    }

    /** Runs state-thread work whose writes share one journal sync (group commit); durable when it returns. */
    void inOneSync(Runnable work) {
        store.inOneSync(() -> {
            work.run();
            return null;
        });
    }

    private void queuePass(long delayMillis) {
        if (passQueued) return;
        passQueued = true;
        try {
            stateThread.orElseThrow().runLater(() -> {
                passQueued = false;
                runSlice();
            }, delayMillis);
        } catch (java.util.concurrent.RejectedExecutionException closing) {
            passQueued = false; // the manager is shutting down; a restart schedules from scratch
        }
    }

    /** One slice of the current pass, or the whole pass where nothing would run the rest; its writes durable when it returns. */
    void scheduleSlice() {
        // the slice's status writes and events share one journal sync (group commit), done before the dispatcher acts on them
        store.inOneSync(() -> {
            if (stateThread.isEmpty()) controller.schedule(); else controller.scheduleSlice();
            return null;
        });
    }
}
