package dev.berth.benchmarks;

import java.util.Arrays;
import java.util.Locale;

/** Latencies in milliseconds, with the percentiles the dispatch benchmark reports. */
record LatencySample(String name, double[] millis) {
    LatencySample {
        millis = millis.clone();
        Arrays.sort(millis);
    }

    double percentile(int p) {
        if (millis.length == 0) return Double.NaN;
        int index = (int) Math.ceil(p / 100.0 * millis.length) - 1;
        return millis[Math.max(0, Math.min(millis.length - 1, index))];
    }

    double max() {
        return millis.length == 0 ? Double.NaN : millis[millis.length - 1];
    }

    String row() {
        return String.format(Locale.ROOT, "| %s | %d | %.0f ms | %.0f ms | %.0f ms | %.0f ms |",
                name, millis.length, percentile(50), percentile(90), percentile(99), max());
    }
}
