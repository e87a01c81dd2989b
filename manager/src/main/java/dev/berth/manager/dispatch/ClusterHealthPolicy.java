package dev.berth.manager.dispatch;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * Combines API reachability (breaker state, last successful call) with the freshness of the agent's
 * heartbeat into one {@link ClusterHealth}. Pure; time comes from the injected clock. In order:
 * <ol>
 *   <li>breaker OPEN, or no successful call for longer than contactGrace: UNREACHABLE;</li>
 *   <li>no heartbeat ever and connected longer than agentLostAfter, or heartbeat older than agentLostAfter: AGENT_LOST;</li>
 *   <li>breaker HALF_OPEN, latest call failed, heartbeat older than heartbeatLateAfter or not seen yet: DEGRADED;</li>
 *   <li>otherwise HEALTHY.</li>
 * </ol>
 */
public final class ClusterHealthPolicy {
    private final Clock clock;
    private final HealthOptions options;

    public ClusterHealthPolicy(Clock clock, HealthOptions options) {
        this.clock = clock;
        this.options = options;
    }

    public HealthAssessment assess(ClusterContact contact) {
        Instant now = clock.instant();
        if (contact.breaker() == BreakerState.OPEN) {
            return new HealthAssessment(ClusterHealth.UNREACHABLE, "circuit breaker open" + cause(contact));
        }
        Instant reference = contact.lastSuccess() != null ? contact.lastSuccess() : contact.connectedAt();
        if (reference == null || age(reference, now).compareTo(options.contactGrace()) > 0) {
            String since = contact.lastSuccess() == null ? "never reached" : "no successful call since " + contact.lastSuccess();
            return new HealthAssessment(ClusterHealth.UNREACHABLE, since + cause(contact));
        }
        if (contact.lastHeartbeat() == null) {
            if (contact.connectedAt() != null && age(contact.connectedAt(), now).compareTo(options.agentLostAfter()) > 0) {
                return new HealthAssessment(ClusterHealth.AGENT_LOST, "no agent heartbeat Lease since the connection at " + contact.connectedAt());
            }
        } else {
            Duration heartbeatAge = age(contact.lastHeartbeat(), now);
            if (heartbeatAge.compareTo(options.agentLostAfter()) > 0) {
                return new HealthAssessment(ClusterHealth.AGENT_LOST, "agent heartbeat last renewed at " + contact.lastHeartbeat()
                        + " (" + heartbeatAge.toSeconds() + "s ago, lost after " + options.agentLostAfter().toSeconds() + "s)");
            }
        }
        if (contact.breaker() == BreakerState.HALF_OPEN) return new HealthAssessment(ClusterHealth.DEGRADED, "circuit breaker half-open: probing");
        if (contact.lastCallFailed()) return new HealthAssessment(ClusterHealth.DEGRADED, "latest call failed" + cause(contact));
        if (contact.lastHeartbeat() == null) return new HealthAssessment(ClusterHealth.DEGRADED, "no agent heartbeat yet");
        Duration heartbeatAge = age(contact.lastHeartbeat(), now);
        if (heartbeatAge.compareTo(options.heartbeatLateAfter()) > 0) {
            return new HealthAssessment(ClusterHealth.DEGRADED, "agent heartbeat late: last renewed " + heartbeatAge.toSeconds() + "s ago");
        }
        return new HealthAssessment(ClusterHealth.HEALTHY, "API reachable and agent heartbeat fresh");
    }

    private static Duration age(Instant then, Instant now) {
        Duration age = Duration.between(then, now);
        return age.isNegative() ? Duration.ZERO : age;
    }

    private static String cause(ClusterContact contact) {
        return contact.lastError() == null ? "" : ": " + contact.lastError();
    }
}
