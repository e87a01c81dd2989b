package dev.berth.manager.security;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The manager's security flags, named like kube-apiserver's: {@code --token-auth-file},
 * {@code --tls-cert-file}, {@code --tls-private-key-file}, {@code --audit-log-path},
 * {@code --oidc-issuer-url}, {@code --oidc-client-id}, {@code --oidc-jwks-url}, {@code --oidc-jwks-file},
 * {@code --oidc-username-claim}, {@code --oidc-username-prefix}, {@code --oidc-groups-claim},
 * {@code --oidc-groups-prefix}, {@code --rate-limit QPS:BURST}, {@code --admin-rate-limit QPS:BURST}; and the
 * {@link EdgeLimits}: {@code --anonymous-rate-limit QPS:BURST}, {@code --dashboard-streams-per-user N},
 * {@code --max-dashboard-streams N}, {@code --request-header-timeout 10s}, {@code --idle-connection-timeout 90s}
 * (durations as Go writes them: {@code 500ms}, {@code 10s}, {@code 2m}).
 */
public final class SecurityFlags {
    public static final java.util.Set<String> NAMES = java.util.Set.of("--token-auth-file", "--tls-cert-file", "--tls-private-key-file",
            "--audit-log-path", "--oidc-issuer-url", "--oidc-client-id", "--oidc-jwks-url", "--oidc-jwks-file", "--oidc-username-claim",
            "--oidc-username-prefix", "--oidc-groups-claim", "--oidc-groups-prefix", "--rate-limit", "--admin-rate-limit",
            "--anonymous-rate-limit", "--dashboard-streams-per-user", "--max-dashboard-streams", "--request-header-timeout",
            "--idle-connection-timeout");

    private SecurityFlags() {}

    /** Empty when neither a token file nor OIDC is configured: the API stays open. */
    public static Optional<SecurityOptions> parse(Map<String, String> flags, Path dataDir) {
        Optional<Path> tokens = Optional.ofNullable(flags.get("--token-auth-file")).map(Path::of);
        Optional<OidcOptions> oidc = Optional.ofNullable(flags.get("--oidc-issuer-url")).map(issuer -> new OidcOptions(URI.create(issuer),
                flags.get("--oidc-client-id"), Optional.ofNullable(flags.get("--oidc-jwks-url")).map(URI::create).orElse(null),
                Optional.ofNullable(flags.get("--oidc-jwks-file")).map(Path::of).orElse(null), flags.get("--oidc-username-claim"),
                flags.get("--oidc-username-prefix"), flags.get("--oidc-groups-claim"), flags.get("--oidc-groups-prefix"), null));
        if (tokens.isEmpty() && oidc.isEmpty()) return Optional.empty();
        Optional<SecurityOptions.Tls> tls = flags.containsKey("--tls-cert-file")
                ? Optional.of(new SecurityOptions.Tls(Path.of(flags.get("--tls-cert-file")), Path.of(flags.get("--tls-private-key-file"))))
                : Optional.empty();
        return Optional.of(new SecurityOptions(tokens, oidc, tls,
                rate(flags.get("--rate-limit"), SecurityOptions.DEFAULT_TENANT_RATE),
                rate(flags.get("--admin-rate-limit"), SecurityOptions.DEFAULT_ADMIN_RATE),
                Path.of(flags.getOrDefault("--audit-log-path", dataDir.resolve("audit.log").toString())), edge(flags)));
    }

    static EdgeLimits edge(Map<String, String> flags) {
        EdgeLimits defaults = EdgeLimits.DEFAULTS;
        return new EdgeLimits(rate(flags.get("--anonymous-rate-limit"), defaults.anonymousRate()),
                count(flags.get("--dashboard-streams-per-user"), defaults.dashboardStreamsPerUser()),
                count(flags.get("--max-dashboard-streams"), defaults.dashboardStreams()),
                duration(flags.get("--request-header-timeout"), defaults.headerReadTimeout()),
                duration(flags.get("--idle-connection-timeout"), defaults.idleTimeout()));
    }

    private static int count(String value, int fallback) {
        return value == null ? fallback : Integer.parseInt(value);
    }

    /** 500ms, 10s, 2m, 1h. */
    static Duration duration(String value, Duration fallback) {
        if (value == null) return fallback;
        Matcher m = Pattern.compile("(\\d+)(ms|s|m|h)").matcher(value.strip());
        if (!m.matches()) throw new IllegalArgumentException("not a duration (e.g. 10s, 500ms, 2m): " + value);
        long amount = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            default -> Duration.ofHours(amount);
        };
    }

    private static SecurityOptions.RateLimit rate(String value, SecurityOptions.RateLimit fallback) {
        if (value == null) return fallback;
        String[] parts = value.split(":");
        int perSecond = Integer.parseInt(parts[0]);
        return new SecurityOptions.RateLimit(perSecond, parts.length > 1 ? Integer.parseInt(parts[1]) : perSecond);
    }
}
