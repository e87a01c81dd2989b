package dev.berth.manager.controller;

import dev.berth.manager.clusters.WorkerClusters;
import dev.berth.manager.dispatch.BreakerState;
import dev.berth.manager.dispatch.ClusterView;
import dev.berth.manager.dispatch.DispatchStatus;
import dev.berth.manager.explain.WorkerClusterRow;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.objects.DispatchStatusJson;
import dev.berth.manager.objects.StatusJson;
import dev.berth.manager.store.StoredObject;
import dev.berth.protocol.VisibilityApi;
import dev.berth.protocol.crd.CapacityReport;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The worker clusters as the dashboard shows them: every MultiKueueCluster with its connection,
 * the agent's last report, its health (ClusterHealthPolicy's, as on its berth.dev/Healthy condition) and
 * circuit breaker state, capacity per
 * flavor as the agent reports it, and the attempts running there. Built on the state thread.
 */
final class WorkerClustersView {
    private final ManagerState state;
    private final DispatchController dispatcher;
    private final WorkerClusters clusters;
    private final Clock clock;
    private final DispatchOptions options;

    WorkerClustersView(ManagerState state, DispatchController dispatcher, WorkerClusters clusters, Clock clock, DispatchOptions options) {
        this.state = state;
        this.dispatcher = dispatcher;
        this.clusters = clusters;
        this.clock = clock;
        this.options = options;
    }

    /** The dispatcher's current attempts that have a copy on a cluster: workload and attempt id. */
    private Map<WorkloadKey, String> attemptsOn(String cluster) {
        Map<WorkloadKey, String> on = new TreeMap<>();
        dispatcher.attempts().forEach((key, attempt) -> {
            if (attempt.clusters().contains(cluster)) on.put(key, attempt.id());
        });
        return on;
    }

    Map<String, Object> render() {
        List<WorkerClusterRow> rows = rows();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("kind", VisibilityApi.WORKER_CLUSTER_LIST);
        body.put("apiVersion", VisibilityApi.BERTH_VISIBILITY_GROUP + "/" + VisibilityApi.V1ALPHA1);
        body.put("items", rows);
        return body;
    }

    /** Every MultiKueueCluster's row, in name order. */
    List<WorkerClusterRow> rows() {
        List<WorkerClusterRow> rows = new ArrayList<>();
        for (StoredObject stored : state.store.list(Resources.MULTIKUEUE_CLUSTERS.resource(), null)) rows.add(row(stored.key().name()));
        return rows;
    }

    private WorkerClusterRow row(String name) {
        ClusterView view = clusters.view(name);
        List<WorkerClusterRow.FlavorRow> capacity = new ArrayList<>();
        CapacityReport report = clusters.capacityReport(name).orElse(null);
        if (report != null) {
            for (CapacityReport.FlavorCapacity flavor : report.getFlavors()) {
                capacity.add(new WorkerClusterRow.FlavorRow(flavor.getName(), flavor.getNodes(),
                        Map.copyOf(flavor.getAllocatable()), Map.copyOf(flavor.getFree())));
            }
        }
        List<WorkerClusterRow.RunningAttempt> running = new ArrayList<>();
        attemptsOn(name).forEach((key, attemptId) -> {
            String phase = state.find(Resources.WORKLOADS.resource(), key.namespace(), key.name())
                    .map(o -> DispatchStatusJson.dispatchOf(o.path("status"))).map(DispatchStatus::phase).orElse(null);
            running.add(new WorkerClusterRow.RunningAttempt(key.namespace(), key.name(), attemptId, phase));
        });
        // the health policy's verdict, as on the berth.dev/Healthy condition and berth_cluster_health
        String health = view.health() != null ? view.health().reason() : WorkerClusterRow.defaultHealth(view.connected(),
                view.lastHeartbeat(), clock.instant(), options.placement().heartbeatStaleAfter());
        String breaker = view.breaker() == null ? null : breaker(view.breaker());
        String lastError = clusters.lastError(name).orElse(null);
        return new WorkerClusterRow(name, view.connected(),
                view.lastHeartbeat() == null ? null : StatusJson.timestamp(view.lastHeartbeat()), lastError, health, breaker,
                capacity, running);
    }

    private static String breaker(BreakerState state) {
        return switch (state) {
            case CLOSED -> "Closed";
            case HALF_OPEN -> "HalfOpen";
            case OPEN -> "Open";
        };
    }
}
