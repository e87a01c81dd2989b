package dev.berth.manager.controller;

import dev.berth.manager.core.RunningCopies;
import dev.berth.manager.model.WorkloadKey;

/**
 * What the admission side asks of dispatch. The controller's status writer ({@link StoreStatusSink}) says
 * that a workload's status was stored, and the pass runner ({@link SchedulingPasses}) drives dispatch's
 * reconcile in rounds, a scheduling slice after each; the controller asks whether an evicted workload's copy
 * still runs on a worker ({@link RunningCopies}: its quota is kept until the copy stopped). {@link #NONE} where nothing dispatches: an API that
 * only reads, unit tests of the hooks, and a leader until its dispatcher is recovered.
 */
interface DispatchPort extends RunningCopies {
    DispatchPort NONE = new DispatchPort() {
        @Override
        public void workloadChanged(WorkloadKey key) {
        }

        @Override
        public boolean roundsStart() {
            return false;
        }

        @Override
        public boolean round() {
            return false;
        }

        @Override
        public boolean hasRunningCopy(WorkloadKey key) {
            return false;
        }
    };

    /** The controller's part of the workload's status was just stored. */
    void workloadChanged(WorkloadKey key);

    /** Before a reconcile's rounds: queues what they should look at; false when dispatch cannot act yet (no worker clusters). */
    boolean roundsStart();

    /** One round over the workloads ready now; false when none was ready. */
    boolean round();
}
