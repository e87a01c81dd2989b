package dev.berth.benchmarks;

import dev.berth.manager.model.WorkloadKey;
import java.util.concurrent.ScheduledFuture;

/** What the replay knows about one workload. Touched only on the replay's state thread. */
final class TrackedWorkload {
    final WorkloadKey key;
    final WorkloadClass workloadClass;
    final long createdAtMillis;
    long firstAdmittedAtMillis = -1;
    /** When the current run (admitted, not yet finished or preempted) started. */
    long runStartMillis = -1;
    /** The pending "job ran to completion" task while the workload is admitted; null otherwise. */
    ScheduledFuture<?> finishTask;
    boolean finished;

    TrackedWorkload(WorkloadKey key, WorkloadClass workloadClass, long createdAtMillis) {
        this.key = key;
        this.workloadClass = workloadClass;
        this.createdAtMillis = createdAtMillis;
    }

    boolean running() {
        return finishTask != null;
    }
}
