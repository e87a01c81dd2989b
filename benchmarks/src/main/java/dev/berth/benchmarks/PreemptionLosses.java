package dev.berth.benchmarks;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The runs a replay's preemptions cut short: how many per workload class, and the work (cpu x time) they had done
 * and lost, as a share of the scenario's work. Touched by the replay's state thread only.
 */
final class PreemptionLosses {
    private final double scenarioWork;
    private final Map<String, Integer> byClass = new TreeMap<>();
    private double lost;

    PreemptionLosses(PerfScenario scenario) {
        this.scenarioWork = scenario.workCpuMillisTimesMillis();
    }

    /** A run of this class that had run {@code ranMillis} was preempted. */
    void preempted(WorkloadClass workloadClass, long ranMillis) {
        lost += (double) ranMillis * workloadClass.cpuMillis();
        byClass.merge(workloadClass.name(), 1, Integer::sum);
    }

    String line() {
        return String.format(Locale.ROOT, "runs cut short by a preemption: %.1f %% of the scenario's work (cpu x time) done and lost;"
                + " preempted by class %s%n", scenarioWork == 0 ? 0 : 100 * lost / scenarioWork, byClass);
    }
}
