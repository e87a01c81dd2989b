package dev.berth.manager.clusters;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.ArrayDeque;
import java.util.function.Supplier;

/**
 * The calls that change one cluster, at most {@code limit} in flight; the others wait here, in order,
 * and start as earlier ones finish. A dispatch pass that places hundreds of workloads at once, whose
 * creates leave together after the pass's journal sync, so reaches the cluster at the pace it answers
 * instead of overflowing the cluster's bulkhead (a full bulkhead fails a call at once, and a create that
 * failed so is held back until its lease has run out). A waiting call's time limit starts only when it
 * starts. Thread-safe; a call that completes at once (an open breaker) does not deepen the stack.
 */
final class PacedSends {
    private static final ThreadLocal<ArrayDeque<Runnable>> STARTING = new ThreadLocal<>();

    private final int limit;
    private final ArrayDeque<Runnable> waiting = new ArrayDeque<>();
    private int inFlight;

    PacedSends(int limit) {
        this.limit = Math.max(1, limit);
    }

    <T> Future<T> send(Supplier<Future<T>> call) {
        Promise<T> answered = Promise.promise();
        Runnable start = () -> call.get().onComplete(done -> {
            answered.handle(done);
            finished();
        });
        synchronized (this) {
            if (inFlight >= limit) {
                waiting.add(start);
                return answered.future();
            }
            inFlight++;
        }
        run(start);
        return answered.future();
    }

    /** Calls waiting for a slot. */
    synchronized int waiting() {
        return waiting.size();
    }

    private void finished() {
        Runnable next;
        synchronized (this) {
            next = waiting.poll();
            if (next == null) inFlight--;
        }
        if (next != null) run(next);
    }

    /** Starts the call, or, when this thread is already starting one (it completed at once), right after that one. */
    private static void run(Runnable start) {
        ArrayDeque<Runnable> starting = STARTING.get();
        if (starting != null) {
            starting.add(start);
            return;
        }
        starting = new ArrayDeque<>();
        STARTING.set(starting);
        try {
            for (Runnable next = start; next != null; next = starting.poll()) next.run();
        } finally {
            STARTING.remove();
        }
    }
}
