package dev.berth.manager.controller;

import dev.berth.manager.clusters.ResilienceOptions;
import dev.berth.manager.dispatch.FailoverOptions;
import dev.berth.manager.dispatch.HealthOptions;
import dev.berth.manager.dispatch.PlacementOptions;
import dev.berth.manager.dispatch.StartTimeoutOptions;
import dev.berth.manager.dispatch.UnservedFlavorOptions;
import dev.berth.manager.dispatch.WorkQueueOptions;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Dispatch and failover options read from a map of named values (command-line flags and environment
 * variables feed it), so tests need neither. Names are the flags without the leading dashes
 * (worker-lost-timeout); each also reads from the environment as BERTH_ plus the name in upper
 * case with underscores (BERTH_WORKER_LOST_TIMEOUT). Durations are ISO-8601 (PT15M) or a number with
 * ms, s, m or h (15m, 500ms). A bad value, or a lease not shorter than workerLostTimeout, fails with
 * a message naming the option.
 */
public final class DispatchConfig {
    /** Every option name, for usage lines and the environment. */
    public static final List<String> NAMES = List.of("manager-id", "lease-duration", "poll-interval", "worker-lost-timeout",
            "lease-margin", "contact-grace", "heartbeat-late-after", "agent-lost-after", "heartbeat-stale-after",
            "call-timeout", "retry-attempts", "retry-backoff", "breaker-failure-rate", "breaker-window", "breaker-open-for",
            "max-concurrent-calls", "dispatch-resync-interval", "unserved-flavor-timeout", "unserved-flavor-retry-backoff",
            "dispatch-start-timeout", "withdrawn-cluster-avoid-for");

    private DispatchConfig() {}

    /** The options named in the environment (BERTH_WORKER_LOST_TIMEOUT=...). */
    public static Map<String, String> fromEnvironment(Map<String, String> environment) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String name : NAMES) {
            String value = environment.get("BERTH_" + name.toUpperCase(Locale.ROOT).replace('-', '_'));
            if (value != null && !value.isBlank()) values.put(name, value);
        }
        return values;
    }

    public static DispatchOptions parse(Map<String, String> values) {
        for (String name : values.keySet()) {
            if (!NAMES.contains(name)) throw new IllegalArgumentException("unknown dispatch option " + name + "; known: " + NAMES);
        }
        DispatchOptions d = DispatchOptions.DEFAULTS;
        FailoverOptions f = FailoverOptions.DEFAULTS;
        HealthOptions h = f.health();
        ResilienceOptions r = ResilienceOptions.DEFAULTS;
        PlacementOptions p = d.placement();
        WorkQueueOptions q = d.workQueue();
        UnservedFlavorOptions u = d.unservedFlavors();
        try {
            HealthOptions health = new HealthOptions(duration(values, "contact-grace", h.contactGrace()),
                    duration(values, "heartbeat-late-after", h.heartbeatLateAfter()), duration(values, "agent-lost-after", h.agentLostAfter()));
            FailoverOptions failover = new FailoverOptions(duration(values, "worker-lost-timeout", f.workerLostTimeout()),
                    duration(values, "lease-margin", f.leaseMargin()), health);
            ResilienceOptions resilience = new ResilienceOptions(duration(values, "call-timeout", r.callTimeout()),
                    integer(values, "retry-attempts", r.retryAttempts()), duration(values, "retry-backoff", r.retryBackoff()),
                    integer(values, "breaker-failure-rate", (int) r.failureRatePercent()), integer(values, "breaker-window", r.slidingWindowCalls()),
                    duration(values, "breaker-open-for", r.openFor()), integer(values, "max-concurrent-calls", r.maxConcurrentCalls()));
            PlacementOptions placement = new PlacementOptions(duration(values, "heartbeat-stale-after", p.heartbeatStaleAfter()),
                    p.incrementalInterval());
            return new DispatchOptions(values.getOrDefault("manager-id", d.managerId()), duration(values, "lease-duration", d.leaseDuration()),
                    duration(values, "poll-interval", d.pollInterval()), placement, failover, resilience,
                    new WorkQueueOptions(q.firstRetry(), q.maxRetry(), duration(values, "dispatch-resync-interval", q.resyncInterval())),
                    new UnservedFlavorOptions(duration(values, "unserved-flavor-timeout", u.timeout()),
                            duration(values, "unserved-flavor-retry-backoff", u.retryBackoff())),
                    new StartTimeoutOptions(duration(values, "dispatch-start-timeout", d.startTimeout().startTimeout()),
                            duration(values, "withdrawn-cluster-avoid-for", d.startTimeout().avoidFor())));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid dispatch configuration: " + e.getMessage(), e);
        }
    }

    static Duration duration(Map<String, String> values, String name, Duration fallback) {
        String value = values.get(name);
        if (value == null) return fallback;
        String text = value.trim().toLowerCase(Locale.ROOT);
        try {
            if (text.startsWith("p")) return Duration.parse(value.trim());
            if (text.endsWith("ms")) return Duration.ofMillis(Long.parseLong(text.substring(0, text.length() - 2)));
            long amount = Long.parseLong(text.substring(0, text.length() - 1));
            return switch (text.charAt(text.length() - 1)) {
                case 's' -> Duration.ofSeconds(amount);
                case 'm' -> Duration.ofMinutes(amount);
                case 'h' -> Duration.ofHours(amount);
                default -> Duration.ofSeconds(Long.parseLong(text));
            };
        } catch (NumberFormatException | DateTimeParseException | StringIndexOutOfBoundsException e) {
            throw new IllegalArgumentException(name + ": \"" + value + "\" is not a duration (use e.g. 15m, 30s, 500ms or PT15M)");
        }
    }

    private static int integer(Map<String, String> values, String name, int fallback) {
        String value = values.get(name);
        if (value == null) return fallback;
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + ": \"" + value + "\" is not an integer");
        }
    }
}
