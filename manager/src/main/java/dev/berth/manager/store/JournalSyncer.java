package dev.berth.manager.store;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The journal's sync thread (pipelined group commit, as PostgreSQL's WAL writer or etcd's raft log):
 * a group's end asks it for a force and returns, so the writing thread goes on while the disk syncs.
 * The thread takes every request waiting, forces once for all of them (the journal is one sequential
 * file, so one force covers every append made before it started), then runs their actions in the
 * order they asked. A failed force runs none of them, and none after it: their writes may not be on
 * disk, so nothing waiting for them may be acknowledged.
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
    private final List<Runnable> waiting = new ArrayList<>();
    private boolean closing;
    private boolean failed;

    JournalSyncer(String name, Force force, Failure failure) {
        this.force = force;
        this.failure = failure;
        this.thread = new Thread(this::run, name);
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /** Runs the action once a force that started after this call has ended; never if a force failed. */
    synchronized void afterNextForce(Runnable action) {
        if (failed) return;
        if (closing) throw new IllegalStateException("journal is closing");
        waiting.add(action);
        notifyAll();
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
            List<Runnable> batch;
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
                synchronized (this) {
                    failed = true;
                    waiting.clear();
                }
                IOException cause = e instanceof IOException io ? io : new IOException(e);
                failure.failed(cause);
                return;
            }
            for (Runnable action : batch) {
                try {
                    action.run();
                } catch (RuntimeException e) {
                    log.atWarn().setMessage("an action waiting for a journal sync failed").setCause(e).log();
                }
            }
        }
    }
}
