package dev.berth.manager.dispatch;

import java.util.Locale;

/**
 * How worker clusters are chosen, per MultiKueueConfig (annotation berth.dev/dispatch-strategy).
 * DEFAULT: the one cluster where the workload can start now. ALL_AT_ONCE and INCREMENTAL behave as
 * Kueue's MultiKueue dispatchers do: copies in several clusters, the first to admit wins (two-phase: only
 * the committed copy starts). EXTERNAL: copies only in the clusters an outside controller nominated in the
 * Workload's status.nominatedClusterNames (Kueue v1beta2), also two-phase.
 */
public enum DispatchStrategy {
    DEFAULT, ALL_AT_ONCE, INCREMENTAL, EXTERNAL;

    /** Default, AllAtOnce, Incremental or External (case-insensitive); null or blank means DEFAULT. */
    public static DispatchStrategy parse(String value) {
        if (value == null || value.isBlank()) return DEFAULT;
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "default" -> DEFAULT;
            case "allatonce" -> ALL_AT_ONCE;
            case "incremental" -> INCREMENTAL;
            case "external" -> EXTERNAL;
            default -> throw new IllegalArgumentException("unknown dispatch strategy \"" + value
                    + "\": expected Default, AllAtOnce, Incremental or External");
        };
    }
}
