package dev.berth.manager.dispatch;

import java.time.Duration;

/**
 * Tolerances of the health policy. contactGrace: how long without a successful call before a
 * cluster whose breaker is still closed counts as Unreachable (a few failed polls are a blip).
 * heartbeatLateAfter: a heartbeat older than this makes the cluster Degraded (a few missed beats).
 * agentLostAfter: older than this (or none within it since the connection) makes it AgentLost.
 */
public record HealthOptions(Duration contactGrace, Duration heartbeatLateAfter, Duration agentLostAfter) {
    public static final HealthOptions DEFAULTS = new HealthOptions(Duration.ofSeconds(30), Duration.ofSeconds(15), Duration.ofSeconds(60));

    public HealthOptions {
        if (heartbeatLateAfter.compareTo(agentLostAfter) > 0) {
            throw new IllegalArgumentException("heartbeatLateAfter (" + heartbeatLateAfter + ") must not exceed agentLostAfter (" + agentLostAfter + ")");
        }
    }
}
