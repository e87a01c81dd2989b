package dev.berth.manager.security;

import java.nio.file.Path;
import java.util.Optional;

/**
 * How the API is secured. tokenFile and oidc authenticate (at least one is needed); tls serves HTTPS;
 * rates per user per second (bursts of burst requests), admins at their own rate; the audit log file;
 * what an anonymous or slow client may hold at the edge ({@link EdgeLimits}).
 */
public record SecurityOptions(Optional<Path> tokenFile, Optional<OidcOptions> oidc, Optional<Tls> tls,
                              RateLimit tenantRate, RateLimit adminRate, Path auditLog, EdgeLimits edge) {
    /** PEM files: the certificate chain and its private key. */
    public record Tls(Path certificate, Path key) {}

    /** Requests per second and how many may come at once. */
    public record RateLimit(int perSecond, int burst) {
        public RateLimit {
            if (perSecond <= 0 || burst <= 0) throw new IllegalArgumentException("rate limits must be positive");
        }
    }

    public static final RateLimit DEFAULT_TENANT_RATE = new RateLimit(50, 100);
    public static final RateLimit DEFAULT_ADMIN_RATE = new RateLimit(500, 1000);

    /** The same authentication, limits and audit log, served over plain HTTP (a replica's loopback-only inner manager). */
    public SecurityOptions withoutTls() {
        return new SecurityOptions(tokenFile, oidc, Optional.empty(), tenantRate, adminRate, auditLog, edge);
    }

    /** With the default {@link EdgeLimits}. */
    public SecurityOptions(Optional<Path> tokenFile, Optional<OidcOptions> oidc, Optional<Tls> tls,
                           RateLimit tenantRate, RateLimit adminRate, Path auditLog) {
        this(tokenFile, oidc, tls, tenantRate, adminRate, auditLog, EdgeLimits.DEFAULTS);
    }

    /** The same, with admins limited to adminRate (the {@code --admin-rate-limit} flag). */
    public SecurityOptions withAdminRate(RateLimit adminRate) {
        return new SecurityOptions(tokenFile, oidc, tls, tenantRate, adminRate, auditLog, edge);
    }

    public SecurityOptions withEdge(EdgeLimits limits) {
        return new SecurityOptions(tokenFile, oidc, tls, tenantRate, adminRate, auditLog, limits);
    }

    public SecurityOptions {
        if (tokenFile.isEmpty() && oidc.isEmpty()) throw new IllegalArgumentException("security needs a token file or OIDC");
    }
}
