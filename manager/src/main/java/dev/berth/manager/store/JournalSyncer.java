package dev.berth.manager.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The journal's sync thread (pipelined group commit, as PostgreSQL's WAL writer or etcd's raft log):
 * a group's end asks it for a force and returns, so the writing thread goes on while the disk syncs.
 * The thread takes every request waiting, forces once for all of them (the journal is one sequential
 * file, so one force covers every append made before it started), then runs their actions in the
 * order they asked. A failed force tells every request waiting, and every one after it, that its group
 * is lost: their writes may not be on disk, so nothing waiting for them may be acknowledged, and the
 * waiters answer with the failure instead of never answering.
 */
final class JournalSyncer {
    /** Forces the journal; called on the sync thread. */
    interface Force {
        void force() throws IOException;
    }

    /** Told once, on the sync thread, when a force failed. */
    interface Failure {
        void failed(IOException cause);
    }

    private static final Logger log = LoggerFactory.getLogger(JournalSyncer.class);

    private final Force force;
    private final Failure failure;
    private final Thread thread;
    private final List<SyncOutcome> waiting = new ArrayList<>();
    private boolean closing;
    /** Why a force failed; every request from then on is told lost at once. */
    private RuntimeException failed;

    JournalSyncer(String name, Force force, Failure failure) {
        this.force = force;
        this.failure = failure;
        this.thread = new Thread(this::run, name);
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /** Tells the outcome durable once a force that started after this call has ended; lost if that or an earlier force failed. */
    void afterNextForce(SyncOutcome outcome) {
        RuntimeException lost;
        synchronized (this) {
            lost = failed;
            if (lost == null) {
                if (closing) throw new IllegalStateException("journal is closing");
                waiting.add(outcome);
                notifyAll();
                return;
            }
        }
        outcome.lost(lost);
    }

    /** Forces for every request made so far and runs their actions, then stops the thread (bounded wait). */
    void close() {
        synchronized (this) {
            closing = true;
            notifyAll();
        }
        try {
            thread.join(60_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        while (true) {
            List<SyncOutcome> batch;
            synchronized (this) {
                while (waiting.isEmpty() && !closing) {
                    try {
                        wait();
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                if (waiting.isEmpty()) return;
                batch = new ArrayList<>(waiting);
                waiting.clear();
            }
            try {
                force.force();
            } catch (IOException | RuntimeException e) {
                IOException cause = e instanceof IOException io ? io : new IOException(e);
                failure.failed(cause);
                RuntimeException lost = new UncheckedIOException("the journal's sync failed; the manager refuses writes until it restarts", cause);
                synchronized (this) {
                    failed = lost;
                    batch.addAll(waiting);
                    waiting.clear();
                }
                for (SyncOutcome outcome : batch) tell(outcome, lost);
                return;
            }
            for (SyncOutcome outcome : batch) tell(outcome, null);
        }
    }

    private static void tell(SyncOutcome outcome, RuntimeException lostOrNull) {
        try {
            if (lostOrNull == null) outcome.durable();
            else outcome.lost(lostOrNull);
        } catch (RuntimeException e) {
            log.atWarn().setMessage("a group waiting for a journal sync failed to take its outcome").setCause(e).log();
        }
    }
}
