package dev.berth.manager.security;

import java.nio.file.Path;
import java.util.Optional;

/**
 * How the API is secured. tokenFile and oidc authenticate (at least one is needed); tls serves HTTPS;
 * rates per user per second (bursts of burst requests), admins at their own rate; the audit log file.
 */
public record SecurityOptions(Optional<Path> tokenFile, Optional<OidcOptions> oidc, Optional<Tls> tls,
                              RateLimit tenantRate, RateLimit adminRate, Path auditLog) {
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
        return new SecurityOptions(tokenFile, oidc, Optional.empty(), tenantRate, adminRate, auditLog);
    }

    public SecurityOptions {
        if (tokenFile.isEmpty() && oidc.isEmpty()) throw new IllegalArgumentException("security needs a token file or OIDC");
    }
}
