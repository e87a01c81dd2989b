package dev.berth.manager.controller;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.manager.dashboard.DashboardEventSource;
import dev.berth.manager.dashboard.DashboardSnapshot;
import dev.berth.manager.explain.DispatchFacts;
import dev.berth.manager.explain.ExplainScope;
import dev.berth.manager.explain.Explainer;
import dev.berth.manager.explain.QuotaAgainstCapacity;
import dev.berth.manager.model.WorkloadKey;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;

/**
 * Takes the dashboard's snapshot on the state thread, from the same read-only sources as the
 * visibility endpoints (quota snapshot, pending queues, clusters view) and the event source, and
 * renders it there as one line of JSON. Quota against capacity comes from that same quota snapshot and
 * clusters view; the first pending workloads of each ClusterQueue get the answer their explain
 * subresource gives (one diagnosis each, bounded by {@link DashboardSnapshot#ANSWERS_PER_QUEUE}).
 */
final class DashboardFeed {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ManagerState state;
    private final DispatchController dispatcher;
    private final WorkerClustersView clusters;
    private final Supplier<DashboardEventSource> events;
    private final ExecutorService stateThread;

    DashboardFeed(ManagerState state, DispatchController dispatcher, WorkerClustersView clusters, Supplier<DashboardEventSource> events,
                  ExecutorService stateThread) {
        this.state = state;
        this.dispatcher = dispatcher;
        this.clusters = clusters;
        this.events = events;
        this.stateThread = stateThread;
    }

    CompletableFuture<String> snapshot() {
        return CompletableFuture.supplyAsync(this::render, stateThread);
    }

    private String render() {
        var quota = state.controller.quotaSnapshot();
        var rows = clusters.rows();
        var capacity = QuotaAgainstCapacity.of(quota, rows);
        var body = DashboardSnapshot.render(quota, cq -> state.controller.pendingWorkloads(cq).orElse(List.of()),
                key -> answer(key, capacity), capacity, rows, events.get().newest(DashboardSnapshot.EVENTS));
        try {
            return JSON.writeValueAsString(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("dashboard snapshot not serializable", e);
        }
    }

    /** The explain subresource's answer for a pending workload; it holds no quota, so there is no remote attempt to read. */
    private String answer(WorkloadKey key, List<QuotaAgainstCapacity.Row> capacity) {
        var check = dispatcher.dispatchCheck(state.controller.statusOf(key));
        var placement = dispatcher.lastPlacement(key);
        return state.controller.diagnose(key)
                .map(d -> Explainer.explain(d, new DispatchFacts(check, placement, null), capacity,
                        state.controller.aheadOnly(key), ExplainScope.FLEET).answer()).orElse(null);
    }
}
