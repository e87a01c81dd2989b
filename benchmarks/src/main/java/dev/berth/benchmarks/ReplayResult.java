package dev.berth.benchmarks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The outcome of one replay, and its rendering as a console summary and as Markdown for docs/benchmarks.md. */
record ReplayResult(PerfScenario scenario,
                    long wallMillis,
                    Map<String, long[]> timeToAdmissionMillisByClass,
                    double meanUsageFraction,
                    long preemptions,
                    long cycles) {

    ReplayResult {
        timeToAdmissionMillisByClass = new LinkedHashMap<>(timeToAdmissionMillisByClass);
        timeToAdmissionMillisByClass.values().forEach(Arrays::sort);
    }

    double ratio() {
        return (double) wallMillis / scenario.lowerBoundMillis();
    }

    boolean meetsTarget() {
        return ratio() <= scenario.targetRatio();
    }

    String render() {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "Scenario %s: %d cohorts x %d ClusterQueues, %d workloads%n",
                scenario.name(), scenario.topology().cohorts(), scenario.topology().queuesPerCohort(), scenario.workloadCount()));
        out.append(String.format(Locale.ROOT, "wall time      %.2f s (first creation to last finish)%n", wallMillis / 1000.0));
        out.append(String.format(Locale.ROOT, "lower bound    %.2f s%n", scenario.lowerBoundMillis() / 1000.0));
        out.append(String.format(Locale.ROOT, "ratio          %.3fx (target <= %.2fx: %s)%n",
                ratio(), scenario.targetRatio(), meetsTarget() ? "met" : "MISSED"));
        out.append(String.format(Locale.ROOT, "mean usage     %.1f %% of total nominal quota%n", meanUsageFraction * 100));
        out.append(String.format(Locale.ROOT, "preemptions    %d%n", preemptions));
        if (cycles >= 0) out.append(String.format(Locale.ROOT, "cycles         %d%n", cycles)); // -1: not known (through the API)
        for (Map.Entry<String, long[]> entry : timeToAdmissionMillisByClass.entrySet()) {
            long[] values = entry.getValue();
            out.append(String.format(Locale.ROOT, "time to admission %-6s avg %8.1f ms  p50 %6d ms  p90 %6d ms  (n=%d)%n",
                    entry.getKey(), average(values), percentile(values, 50), percentile(values, 90), values.length));
        }
        out.append(System.lineSeparator()).append("Markdown for docs/benchmarks.md:").append(System.lineSeparator());
        out.append(markdown());
        return out.toString();
    }

    String markdown() {
        List<String> lines = new ArrayList<>();
        lines.add("| Scenario | Workloads | Wall time | Lower bound | Ratio | Target | Mean usage | Preemptions |");
        lines.add("|---|---|---|---|---|---|---|---|");
        lines.add(String.format(Locale.ROOT, "| %s (%d x %d CQs) | %d | %.2f s | %.2f s | %.3fx | <= %.2fx | %.1f %% | %d |",
                scenario.name(), scenario.topology().cohorts(), scenario.topology().queuesPerCohort(),
                scenario.workloadCount(), wallMillis / 1000.0, scenario.lowerBoundMillis() / 1000.0, ratio(),
                scenario.targetRatio(), meanUsageFraction * 100, preemptions));
        lines.add("");
        lines.add("| Scenario | Class | Admitted | Avg time to admission | p50 | p90 |");
        lines.add("|---|---|---|---|---|---|");
        for (Map.Entry<String, long[]> entry : timeToAdmissionMillisByClass.entrySet()) {
            long[] values = entry.getValue();
            lines.add(String.format(Locale.ROOT, "| %s | %s | %d | %.1f ms | %d ms | %d ms |", scenario.name(),
                    entry.getKey(), values.length, average(values), percentile(values, 50), percentile(values, 90)));
        }
        return String.join(System.lineSeparator(), lines) + System.lineSeparator();
    }

    private static double average(long[] sorted) {
        if (sorted.length == 0) return 0;
        double sum = 0;
        for (long value : sorted) sum += value;
        return sum / sorted.length;
    }

    /** Nearest-rank percentile of sorted values. */
    private static long percentile(long[] sorted, int percent) {
        if (sorted.length == 0) return 0;
        int rank = (int) Math.ceil(percent / 100.0 * sorted.length);
        return sorted[Math.max(0, rank - 1)];
    }
}
