package dev.berth.manager.model;

/** How a ClusterQueue orders and retries its pending workloads. */
public enum QueueingStrategy {
    /** An inadmissible head blocks the workloads behind it. */
    STRICT_FIFO("StrictFIFO"),
    /** An inadmissible workload steps aside until capacity changes. */
    BEST_EFFORT_FIFO("BestEffortFIFO");

    private final String wireName;

    QueueingStrategy(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }
}
