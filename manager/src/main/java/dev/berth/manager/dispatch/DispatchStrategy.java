package dev.berth.manager.dispatch;

import java.util.Locale;

/**
 * How worker clusters are chosen, per MultiKueueConfig (annotation berth.dev/dispatch-strategy).
 * DEFAULT: the one cluster where the workload can start now. ALL_AT_ONCE and INCREMENTAL behave as
 * Kueue's MultiKueue dispatchers do: copies in several clusters, the first to admit wins.
 */
public enum DispatchStrategy {
    DEFAULT, ALL_AT_ONCE, INCREMENTAL;

    /** Default, AllAtOnce or Incremental (case-insensitive); null or blank means DEFAULT. */
    public static DispatchStrategy parse(String value) {
        if (value == null || value.isBlank()) return DEFAULT;
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "default" -> DEFAULT;
            case "allatonce" -> ALL_AT_ONCE;
            case "incremental" -> INCREMENTAL;
            default -> throw new IllegalArgumentException("unknown dispatch strategy \"" + value
                    + "\": expected Default, AllAtOnce or Incremental");
        };
    }
}
