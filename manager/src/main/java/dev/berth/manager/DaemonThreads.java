package dev.berth.manager;

import java.util.concurrent.ThreadFactory;

/** Threads of the manager's own executors: named, so logs and profiles say whose they are, and daemons, so none holds the JVM open. */
public final class DaemonThreads {
    private DaemonThreads() {
    }

    public static ThreadFactory named(String name) {
        return task -> {
            Thread thread = new Thread(task, name);
            thread.setDaemon(true);
            return thread;
        };
    }
}
