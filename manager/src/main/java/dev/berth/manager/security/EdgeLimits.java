package dev.berth.manager.security;

import java.time.Duration;

/**
 * What one client may hold at the edge, whoever it is: requests per second from an address that has
 * not authenticated (health probes excepted), live dashboard streams per user and in all, how long a
 * connection may take to send a request's headers, and how long a connection may sit idle between
 * requests. The defaults follow kube-apiserver where it has a counterpart (idle 90 s).
 */
public record EdgeLimits(SecurityOptions.RateLimit anonymousRate, int dashboardStreamsPerUser, int dashboardStreams,
                         Duration headerReadTimeout, Duration idleTimeout) {
    public static final EdgeLimits DEFAULTS = new EdgeLimits(new SecurityOptions.RateLimit(10, 50), 4, 64,
            Duration.ofSeconds(10), Duration.ofSeconds(90));

    public EdgeLimits {
        if (dashboardStreamsPerUser <= 0 || dashboardStreams <= 0) throw new IllegalArgumentException("stream limits must be positive");
        if (headerReadTimeout.isNegative() || headerReadTimeout.isZero() || idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new IllegalArgumentException("connection timeouts must be positive");
        }
    }

    public EdgeLimits withAnonymousRate(SecurityOptions.RateLimit rate) {
        return new EdgeLimits(rate, dashboardStreamsPerUser, dashboardStreams, headerReadTimeout, idleTimeout);
    }

    public EdgeLimits withDashboardStreams(int perUser, int total) {
        return new EdgeLimits(anonymousRate, perUser, total, headerReadTimeout, idleTimeout);
    }

    public EdgeLimits withConnectionTimeouts(Duration headerRead, Duration idle) {
        return new EdgeLimits(anonymousRate, dashboardStreamsPerUser, dashboardStreams, headerRead, idle);
    }
}
