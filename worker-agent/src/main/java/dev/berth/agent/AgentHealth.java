package dev.berth.agent;

import java.util.concurrent.atomic.AtomicBoolean;

/** Readiness: true once a heartbeat succeeded, and false again while heartbeats fail (API unreachable). */
public final class AgentHealth {
    private final AtomicBoolean lastHeartbeatSucceeded = new AtomicBoolean(false);

    public void heartbeatSucceeded() {
        lastHeartbeatSucceeded.set(true);
    }

    public void heartbeatFailed() {
        lastHeartbeatSucceeded.set(false);
    }

    public boolean isReady() {
        return lastHeartbeatSucceeded.get();
    }
}
