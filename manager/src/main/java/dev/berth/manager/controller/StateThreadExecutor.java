package dev.berth.manager.controller;

import dev.berth.manager.DaemonThreads;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The manager's single state thread, timing every task it is given: how long the task waited in the
 * queue, and how long it ran (controller-runtime's workqueue queue and work durations). A request
 * that waits behind a long scheduling pass shows in the first; the pass itself in the second.
 */
final class StateThreadExecutor extends ThreadPoolExecutor {
    /** Where a task's times go; called on the state thread once the task ended. */
    interface TaskTimes {
        TaskTimes NONE = (queuedNanos, ranNanos) -> { };

        void taskRan(long queuedNanos, long ranNanos);
    }

    private volatile TaskTimes times = TaskTimes.NONE;

    StateThreadExecutor(String threadName) {
        super(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), DaemonThreads.named(threadName));
    }

    /** From now on, every task's times go there. */
    void reportTo(TaskTimes times) {
        this.times = times;
    }

    @Override
    public void execute(Runnable task) {
        long queued = System.nanoTime();
        super.execute(() -> {
            long started = System.nanoTime();
            try {
                task.run();
            } finally {
                times.taskRan(started - queued, System.nanoTime() - started);
            }
        });
    }
}
