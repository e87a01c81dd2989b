package dev.berth.benchmarks;

/**
 * One size class of a performance scenario, per ClusterQueue: {@code countPerQueue} workloads of
 * {@code cpuMillis}, one created every {@code intervalMillis}, each running {@code runtimeMillis}
 * once admitted.
 */
public record WorkloadClass(String name, int countPerQueue, long cpuMillis, long runtimeMillis,
                            long intervalMillis, int priority) {

    /** When the last workload of this class is created, relative to the start. */
    public long lastCreationMillis() {
        return (countPerQueue - 1) * intervalMillis;
    }

    /** cpu-milliseconds times milliseconds that one ClusterQueue's workloads of this class consume. */
    public double cpuMillisTimesMillisPerQueue() {
        return (double) countPerQueue * cpuMillis * runtimeMillis;
    }
}
