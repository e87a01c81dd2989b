package dev.berth.manager.explain;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One MultiKueueCluster as the clusters view shows it: connection, the agent's last report, health,
 * capacity per flavor as the agent reports it (quantity strings), and the workloads running there.
 * {@code health} defaults from connection and heartbeat age ({@link #defaultHealth}); the failover
 * work supplies its own (breaker state, cordon) through the same field, and fills {@code breaker}.
 */
public record WorkerClusterRow(String name, boolean connected, String lastReportTime, String lastError, String health,
                               String breaker, List<FlavorRow> capacity, List<RunningAttempt> runningWorkloads) {
    public WorkerClusterRow {
        capacity = List.copyOf(capacity);
        runningWorkloads = List.copyOf(runningWorkloads);
    }

    public record FlavorRow(String flavor, int nodes, Map<String, String> allocatable, Map<String, String> free) {
    }

    public record RunningAttempt(String namespace, String name, String attemptId, String phase) {
    }

    public static final String HEALTHY = "Healthy";
    public static final String UNREACHABLE = "Unreachable";
    public static final String NO_HEARTBEAT = "NoHeartbeat";
    public static final String HEARTBEAT_STALE = "HeartbeatStale";

    public static String defaultHealth(boolean connected, Instant lastHeartbeat, Instant now, Duration staleAfter) {
        if (!connected) return UNREACHABLE;
        if (lastHeartbeat == null) return NO_HEARTBEAT;
        return Duration.between(lastHeartbeat, now).compareTo(staleAfter) > 0 ? HEARTBEAT_STALE : HEALTHY;
    }
}
