package dev.berth.agent;

import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The agent's typed configuration, parsed from command-line arguments ({@code --key value} or
 * {@code --key=value}).
 *
 * @param name the agent's (and its cluster's) name: the heartbeat Lease's holderIdentity
 * @param kubeconfig a kubeconfig file; empty means fabric8's auto-configuration (in-cluster, KUBECONFIG, ~/.kube/config)
 * @param host the interface the HTTP endpoints listen on
 * @param port the HTTP port (0 picks a free one)
 * @param heartbeat how often the Lease is renewed and capacity reported
 * @param reconcileInterval how often every RemoteWorkload is reconciled, besides watch events
 * @param namespaceScope watch RemoteWorkloads in this namespace only; empty means all namespaces
 */
public record AgentConfig(String name, Optional<Path> kubeconfig, String host, int port, Duration heartbeat,
                          Duration reconcileInterval, Optional<String> namespaceScope) {
    public static final String USAGE = "usage: berth-agent --name NAME [--kubeconfig PATH] [--host 0.0.0.0] [--port 8081]"
            + " [--heartbeat PT2S] [--reconcile-interval PT0.5S] [--namespace-scope NAMESPACE]";
    private static final Set<String> KEYS = Set.of("name", "kubeconfig", "host", "port", "heartbeat", "reconcile-interval", "namespace-scope");

    public AgentConfig {
        if (name == null || name.isBlank()) throw new IllegalArgumentException("--name is required; " + USAGE);
        if (port < 0 || port > 65535) throw new IllegalArgumentException("--port must be between 0 and 65535");
        if (heartbeat.isNegative() || heartbeat.isZero()) throw new IllegalArgumentException("--heartbeat must be positive");
        if (reconcileInterval.isNegative() || reconcileInterval.isZero()) throw new IllegalArgumentException("--reconcile-interval must be positive");
    }

    public static AgentConfig parse(String... args) {
        Map<String, String> values = new HashMap<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (!arg.startsWith("--")) throw new IllegalArgumentException("unexpected argument " + arg + "; " + USAGE);
            String key = arg.substring(2);
            String value;
            int equals = key.indexOf('=');
            if (equals >= 0) {
                value = key.substring(equals + 1);
                key = key.substring(0, equals);
            } else {
                if (i + 1 >= args.length) throw new IllegalArgumentException("--" + key + " needs a value; " + USAGE);
                value = args[++i];
            }
            if (!KEYS.contains(key)) throw new IllegalArgumentException("unknown option --" + key + "; " + USAGE);
            values.put(key, value);
        }
        return new AgentConfig(values.get("name"),
                Optional.ofNullable(values.get("kubeconfig")).map(Path::of),
                values.getOrDefault("host", "0.0.0.0"),
                parsePort(values.getOrDefault("port", "8081")),
                parseDuration("heartbeat", values.getOrDefault("heartbeat", "PT2S")),
                parseDuration("reconcile-interval", values.getOrDefault("reconcile-interval", "PT0.5S")),
                Optional.ofNullable(values.get("namespace-scope")).filter(s -> !s.isBlank()));
    }

    private static int parsePort(String text) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--port must be a number, got " + text);
        }
    }

    private static Duration parseDuration(String key, String text) {
        try {
            return Duration.parse(text);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("--" + key + " must be an ISO-8601 duration such as PT2S, got " + text);
        }
    }

    /** The Lease's leaseDurationSeconds: three heartbeats, at least one second. */
    public int leaseDurationSeconds() {
        return (int) Math.max(1, (heartbeat.toMillis() * 3 + 999) / 1000);
    }
}
