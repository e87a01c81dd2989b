package dev.berth.manager.api;

import java.time.Duration;

/** An age as kubectl prints it ({@code 45s}, {@code 3m12s}, {@code 5h}, {@code 2d3h}), after apimachinery's HumanDuration. */
final class HumanDuration {
    private HumanDuration() {}

    static String of(Duration age) {
        long seconds = Math.max(0, age.getSeconds());
        if (seconds < 120) return seconds + "s";
        long minutes = seconds / 60;
        if (minutes < 10) return minutes + "m" + (seconds % 60 == 0 ? "" : (seconds % 60) + "s");
        if (minutes < 180) return minutes + "m";
        long hours = minutes / 60;
        if (hours < 8) return hours + "h" + (minutes % 60 == 0 ? "" : (minutes % 60) + "m");
        if (hours < 48) return hours + "h";
        long days = hours / 24;
        if (days < 8) return days + "d" + (hours % 24 == 0 ? "" : (hours % 24) + "h");
        if (days < 365 * 2) return days + "d";
        return (days / 365) + "y" + (days % 365 == 0 ? "" : (days % 365) + "d");
    }
}
