package dev.berth.manager.dispatch;

import java.time.Duration;
import java.util.List;

/**
 * Hears the dispatcher's transitions, for metrics. Called on the state thread, once per event;
 * implementations must be cheap.
 */
public interface DispatchListener {
    DispatchListener NONE = new DispatchListener() {};

    /** A workload of {@code clusterQueue} was dispatched to these clusters (one attempt). */
    default void dispatched(String clusterQueue, List<String> clusters) {}

    /** The agent of {@code cluster} first reported the attempt admitted or running, this long after dispatch. */
    default void firstReport(String cluster, Duration sinceDispatch) {}

    /** A workload of {@code clusterQueue} was evicted from {@code fromCluster} (lost or drained) to run elsewhere. */
    default void failedOver(String clusterQueue, String fromCluster) {}

    /** An attempt on {@code cluster} was stopped by its agent because its dispatch lease expired. */
    default void leaseExpired(String cluster) {}
}
