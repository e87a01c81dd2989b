package dev.berth.manager.api;

import dev.berth.manager.store.ObjectStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * API requests answered on the state thread in groups: one state-thread task takes every request
 * waiting (at most {@link #MAX_GROUP}), answers them one after another inside
 * {@link ObjectStore#inOneSync}, and completes their futures only once one journal sync made every write
 * of the group durable (group commit; {@link ObjectStore#whenDurable}, so the state thread need not wait for it). Under load many creates share
 * one sync; alone, a request is its own group and waits for one sync as before. Requests keep their
 * arrival order; other state-thread work runs between groups.
 */
final class GroupedStateWork {
    static final int MAX_GROUP = 64;

    private final Executor stateThread;
    private final ObjectStore store;
    private final Queue<Waiting<?>> waiting = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean drainQueued = new AtomicBoolean();

    GroupedStateWork(Executor stateThread, ObjectStore store) {
        this.stateThread = stateThread;
        this.store = store;
    }

    /** Runs the work on the state thread in the next group; the future completes once the group's writes are durable. */
    <T> CompletableFuture<T> submit(Supplier<T> work) {
        Waiting<T> entry = new Waiting<>(work, new CompletableFuture<>());
        waiting.add(entry);
        queueDrain();
        return entry.answer;
    }

    private void queueDrain() {
        if (!drainQueued.compareAndSet(false, true)) return;
        try {
            stateThread.execute(this::drain);
        } catch (RuntimeException rejected) {
            drainQueued.set(false);
            Waiting<?> entry;
            while ((entry = waiting.poll()) != null) entry.answer.completeExceptionally(rejected);
        }
    }

    private void drain() {
        List<Waiting<?>> group = new ArrayList<>();
        for (Waiting<?> entry = waiting.poll(); entry != null; entry = group.size() < MAX_GROUP - 1 ? waiting.poll() : null) {
            group.add(entry);
        }
        drainQueued.set(false);
        if (!waiting.isEmpty()) queueDrain();
        try {
            store.inOneSync(() -> {
                for (Waiting<?> entry : group) entry.run();
                return null;
            });
        } catch (RuntimeException syncFailed) {
            for (Waiting<?> entry : group) entry.answer.completeExceptionally(syncFailed);
            return;
        }
        // answered once the group's writes, and every write before them, are durable: at once when inOneSync
        // waited for its sync, after it when the store syncs off this thread (ChangeFeedStore with deliveries);
        // with the failure if that sync failed, so no client waits for an answer that never comes
        store.whenDurable(() -> group.forEach(Waiting::complete), lost -> group.forEach(entry -> entry.answer.completeExceptionally(lost)));
    }

    private static final class Waiting<T> {
        private final Supplier<T> work;
        private final CompletableFuture<T> answer;
        private T result;
        private Throwable failure;

        Waiting(Supplier<T> work, CompletableFuture<T> answer) {
            this.work = work;
            this.answer = answer;
        }

        void run() {
            try {
                result = work.get();
            } catch (RuntimeException | Error e) {
                failure = e;
            }
        }

        void complete() {
            if (failure != null) answer.completeExceptionally(failure);
            else answer.complete(result);
        }
    }
}
