package dev.berth.manager;

import dev.berth.manager.core.PodsReadyPolicy;
import dev.berth.manager.core.PodsReadyPolicy.RequeuingStrategy;
import dev.berth.manager.core.PodsReadyPolicy.Timestamp;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The manager's {@code --wait-for-pods-ready} flag: Kueue's waitForPodsReady as comma-separated
 * {@code key=value} pairs with the Configuration's field names, e.g.
 * {@code timeout=PT10M,blockAdmission=true,recoveryTimeout=PT3M,timestamp=Creation,backoffLimitCount=5,backoffBaseSeconds=60,backoffMaxSeconds=3600}.
 * Durations are ISO-8601 (PT5M) or Kubernetes style (5m, 90s). An empty value enables it with Kueue's defaults.
 */
public final class PodsReadyFlag {
    public static final String NAME = "--wait-for-pods-ready";

    private PodsReadyFlag() {}

    /** For the command line: the policy, or the problem on stderr and exit status 2. */
    static PodsReadyPolicy parseOrExit(String value) {
        try {
            return parse(value);
        } catch (IllegalArgumentException invalid) {
            System.err.println(invalid.getMessage());
            System.exit(2);
            return null;
        }
    }

    /** The policy the flag describes; IllegalArgumentException naming the field when a value is wrong. */
    public static PodsReadyPolicy parse(String value) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (String pair : value.split(",")) {
            if (pair.isBlank()) continue;
            int eq = pair.indexOf('=');
            if (eq <= 0) throw new IllegalArgumentException(NAME + ": expected key=value, got '" + pair + "'");
            fields.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
        }
        Duration timeout = duration(fields.remove("timeout"), "timeout", PodsReadyPolicy.DEFAULT_TIMEOUT);
        boolean block = bool(fields.remove("blockAdmission"), "blockAdmission");
        Duration recovery = duration(fields.remove("recoveryTimeout"), "recoveryTimeout", null);
        String timestampValue = fields.remove("timestamp");
        Timestamp timestamp = Timestamp.EVICTION;
        if (timestampValue != null) {
            if (timestampValue.equals(Timestamp.CREATION.wireName())) timestamp = Timestamp.CREATION;
            else if (!timestampValue.equals(Timestamp.EVICTION.wireName())) {
                throw new IllegalArgumentException(NAME + ": timestamp must be Eviction or Creation, got '" + timestampValue + "'");
            }
        }
        String limit = fields.remove("backoffLimitCount");
        int base = integer(fields.remove("backoffBaseSeconds"), "backoffBaseSeconds", RequeuingStrategy.DEFAULT_BACKOFF_BASE_SECONDS);
        int max = integer(fields.remove("backoffMaxSeconds"), "backoffMaxSeconds", RequeuingStrategy.DEFAULT_BACKOFF_MAX_SECONDS);
        if (!fields.isEmpty()) throw new IllegalArgumentException(NAME + ": unknown field(s) " + fields.keySet());
        try {
            RequeuingStrategy strategy = new RequeuingStrategy(timestamp,
                    limit == null ? null : integer(limit, "backoffLimitCount", 0), base, max);
            return new PodsReadyPolicy(true, timeout, block, recovery, strategy);
        } catch (IllegalArgumentException invalid) {
            throw new IllegalArgumentException(NAME + ": " + invalid.getMessage(), invalid);
        }
    }

    private static Duration duration(String value, String field, Duration fallback) {
        if (value == null) return fallback;
        try {
            if (value.startsWith("P") || value.startsWith("p")) return Duration.parse(value);
            long amount = Long.parseLong(value.substring(0, value.length() - 1));
            return switch (value.charAt(value.length() - 1)) {
                case 's' -> Duration.ofSeconds(amount);
                case 'm' -> Duration.ofMinutes(amount);
                case 'h' -> Duration.ofHours(amount);
                default -> throw new IllegalArgumentException();
            };
        } catch (RuntimeException invalid) {
            throw new IllegalArgumentException(NAME + ": " + field + " must be a duration such as 5m or PT5M, got '" + value + "'");
        }
    }

    private static boolean bool(String value, String field) {
        if (value == null) return false;
        if (value.equals("true") || value.equals("false")) return Boolean.parseBoolean(value);
        throw new IllegalArgumentException(NAME + ": " + field + " must be true or false, got '" + value + "'");
    }

    private static int integer(String value, String field, int fallback) {
        if (value == null) return fallback;
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException invalid) {
            throw new IllegalArgumentException(NAME + ": " + field + " must be a whole number, got '" + value + "'");
        }
    }
}
