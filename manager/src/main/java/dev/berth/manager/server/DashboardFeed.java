package dev.berth.manager.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.manager.dashboard.DashboardEventSource;
import dev.berth.manager.dashboard.DashboardSnapshot;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;

/**
 * Takes the dashboard's snapshot on the state thread, from the same read-only sources as the
 * visibility endpoints (quota snapshot, pending queues, clusters view) and the event source, and
 * renders it there as one line of JSON.
 */
final class DashboardFeed {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ManagerState state;
    private final WorkerClustersView clusters;
    private final Supplier<DashboardEventSource> events;
    private final ExecutorService stateThread;

    DashboardFeed(ManagerState state, WorkerClustersView clusters, Supplier<DashboardEventSource> events, ExecutorService stateThread) {
        this.state = state;
        this.clusters = clusters;
        this.events = events;
        this.stateThread = stateThread;
    }

    CompletableFuture<String> snapshot() {
        return CompletableFuture.supplyAsync(this::render, stateThread);
    }

    private String render() {
        var body = DashboardSnapshot.render(state.controller.quotaSnapshot(),
                cq -> state.controller.pendingWorkloads(cq).orElse(List.of()), clusters.rows(),
                events.get().newest(DashboardSnapshot.EVENTS));
        try {
            return JSON.writeValueAsString(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("dashboard snapshot not serializable", e);
        }
    }
}
