package dev.berth.manager.dispatch;

import dev.berth.protocol.Conditions;

/**
 * How a worker cluster stands, from the manager's side. Healthy and Degraded clusters keep their
 * workloads (Degraded ones get no new dispatch); Unreachable and AgentLost ones are "lost", and
 * once lost for longer than workerLostTimeout their workloads move elsewhere.
 */
public enum ClusterHealth {
    /** The API answers, the breaker is closed and the agent's heartbeat is fresh. */
    HEALTHY(Conditions.Reasons.HEALTHY),
    /** A transient blip: a failed call or a half-open breaker, or a heartbeat late but not yet lost. */
    DEGRADED(Conditions.Reasons.DEGRADED),
    /** The breaker is open, or no call succeeded within the contact grace. */
    UNREACHABLE(Conditions.Reasons.UNREACHABLE),
    /** The API answers but the agent's heartbeat Lease is missing or older than agentLostAfter. */
    AGENT_LOST(Conditions.Reasons.AGENT_LOST);

    private final String reason;

    ClusterHealth(String reason) {
        this.reason = reason;
    }

    /** The reason of the berth.dev/Healthy condition, and the gauge label. */
    public String reason() {
        return reason;
    }

    public boolean lost() {
        return this == UNREACHABLE || this == AGENT_LOST;
    }
}
