package dev.berth.benchmarks;

/** The time integral of admitted cpu, for the mean usage over a run. Not thread-safe. */
final class UsageIntegral {
    private long lastChangeMillis = -1;
    private long currentCpuMillis;
    private double integral;

    void change(long nowMillis, long deltaCpuMillis) {
        if (lastChangeMillis >= 0) integral += (double) currentCpuMillis * (nowMillis - lastChangeMillis);
        lastChangeMillis = nowMillis;
        currentCpuMillis += deltaCpuMillis;
    }

    /** Mean admitted cpu over [start, end] as a fraction of {@code capacityCpuMillis}. */
    double meanFraction(long startMillis, long endMillis, long capacityCpuMillis) {
        if (endMillis <= startMillis) return 0;
        return integral / ((double) (endMillis - startMillis) * capacityCpuMillis);
    }
}
