package dev.berth.benchmarks;

import java.util.List;

/** A scenario of Kueue's scheduler performance tests (test/performance/scheduler), replayed in real time. */
public record PerfScenario(String name, QueueTopology topology, List<WorkloadClass> classes, double targetRatio) {
    public PerfScenario {
        classes = List.copyOf(classes);
    }

    /** 5 cohorts x 6 ClusterQueues, 15,000 workloads. */
    public static final PerfScenario BASELINE = new PerfScenario("baseline", QueueTopology.kueuePerf(5, 6), List.of(
            new WorkloadClass("small", 350, 1_000, 200, 100, 50),
            new WorkloadClass("medium", 100, 5_000, 500, 500, 100),
            new WorkloadClass("large", 50, 20_000, 1_000, 1_200, 200)), 1.25);

    /** 10 cohorts x 100 ClusterQueues, 50,000 workloads. */
    public static final PerfScenario LARGE = new PerfScenario("large", QueueTopology.kueuePerf(10, 100), List.of(
            new WorkloadClass("small", 35, 1_000, 150, 60, 50),
            new WorkloadClass("medium", 11, 5_000, 350, 300, 100),
            new WorkloadClass("large", 4, 20_000, 700, 700, 200)), 2.0);

    public static PerfScenario named(String name) {
        return switch (name) {
            case "baseline" -> BASELINE;
            case "large" -> LARGE;
            default -> throw new IllegalArgumentException("unknown scenario '" + name + "': use baseline or large");
        };
    }

    public int workloadCount() {
        int perQueue = 0;
        for (WorkloadClass workloadClass : classes) perQueue += workloadClass.countPerQueue();
        return perQueue * topology.queueCount();
    }

    /**
     * No scheduler can finish sooner than this: all cpu-time spread over the total nominal quota, or
     * the last workload's creation plus its runtime, whichever is later.
     */
    public long lowerBoundMillis() {
        long lastEnd = 0;
        for (WorkloadClass workloadClass : classes) {
            lastEnd = Math.max(lastEnd, workloadClass.lastCreationMillis() + workloadClass.runtimeMillis());
        }
        return Math.max((long) Math.ceil(workCpuMillisTimesMillis() / topology.totalNominalCpuMillis()), lastEnd);
    }

    /** The scenario's work: every workload's cpu-milliseconds times its runtime in milliseconds. */
    public double workCpuMillisTimesMillis() {
        double work = 0;
        for (WorkloadClass workloadClass : classes) work += workloadClass.cpuMillisTimesMillisPerQueue() * topology.queueCount();
        return work;
    }
}
