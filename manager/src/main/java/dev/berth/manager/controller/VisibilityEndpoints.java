package dev.berth.manager.controller;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.api.ApiException;
import dev.berth.manager.api.StatusBody;
import dev.berth.manager.core.AdmissionDiagnosis;
import dev.berth.manager.core.PendingWorkloadView;
import dev.berth.manager.dispatch.DispatchStatus;
import dev.berth.manager.explain.BorrowingLedger;
import dev.berth.manager.explain.DispatchFacts;
import dev.berth.manager.explain.CapacityRendering;
import dev.berth.manager.explain.Explainer;
import dev.berth.manager.explain.QuotaAgainstCapacity;
import dev.berth.manager.explain.LedgerRendering;
import dev.berth.manager.explain.PendingWorkloads;
import dev.berth.manager.explain.RemoteAttempt;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.security.edge.ApiSecurity;
import dev.berth.manager.objects.DispatchStatusJson;
import dev.berth.protocol.KueueApi;
import dev.berth.protocol.VisibilityApi;
import io.vertx.core.Future;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The read-only diagnosis endpoints: a Workload's explain subresource, Kueue's pending workloads on
 * demand, the borrowing ledger and the worker clusters view. Every answer is computed on the state
 * thread from snapshots (never changing state) and rendered here; a missing object is a 404 Status.
 */
final class VisibilityEndpoints {
    private static final Logger log = LoggerFactory.getLogger(VisibilityEndpoints.class);
    private static final ObjectMapper JSON = new ObjectMapper().setSerializationInclusion(JsonInclude.Include.ALWAYS);
    private static final String BERTH = "/apis/" + VisibilityApi.BERTH_VISIBILITY_GROUP + "/" + VisibilityApi.V1ALPHA1;

    private final ManagerState state;
    private final DispatchController dispatcher;
    private final ExecutorService stateThread;
    private final WorkerClustersView clustersView;

    VisibilityEndpoints(ManagerState state, DispatchController dispatcher, ExecutorService stateThread, WorkerClustersView clustersView) {
        this.state = state;
        this.dispatcher = dispatcher;
        this.stateThread = stateThread;
        this.clustersView = clustersView;
    }

    void mount(Router router) {
        for (String version : List.of(KueueApi.V1BETA2, KueueApi.V1BETA1)) {
            router.get("/apis/" + KueueApi.GROUP + "/" + version + "/namespaces/:ns/workloads/:name/" + VisibilityApi.EXPLAIN)
                    .handler(ctx -> {
                        ExplainReader reader = ExplainReader.of(state.rbac, ctx.get(ApiSecurity.USER_KEY), ctx.pathParam("ns"));
                        answer(ctx, () -> explain(ctx.pathParam("ns"), ctx.pathParam("name"), reader));
                    });
            String visibility = "/apis/" + VisibilityApi.KUEUE_VISIBILITY_GROUP + "/" + version;
            String apiVersion = VisibilityApi.KUEUE_VISIBILITY_GROUP + "/" + version;
            router.get(visibility + "/clusterqueues/:cq/pendingworkloads").handler(ctx -> answer(ctx,
                    () -> pendingInClusterQueue(ctx, apiVersion)));
            router.get(visibility + "/namespaces/:ns/localqueues/:lq/pendingworkloads").handler(ctx -> answer(ctx,
                    () -> pendingInLocalQueue(ctx, apiVersion)));
        }
        router.get(BERTH + "/borrowing").handler(ctx -> answer(ctx, () -> borrowing(ctx.request().getParam("cohort"))));
        router.get(BERTH + "/clusters").handler(ctx -> answer(ctx, clustersView::render));
        router.get(BERTH + "/capacity").handler(ctx -> answer(ctx, () -> CapacityRendering.render(capacity())));
    }

    private Object explain(String namespace, String name, ExplainReader reader) {
        WorkloadKey key = WorkloadKey.of(namespace, name);
        AdmissionDiagnosis diagnosis = state.controller.diagnose(key)
                .orElseThrow(() -> ApiException.notFound(Resources.WORKLOADS, name));
        var check = dispatcher.dispatchCheck(state.controller.statusOf(key));
        var placement = dispatcher.lastPlacement(key);
        RemoteAttempt attempt = state.find(Resources.WORKLOADS.resource(), namespace, name)
                .map(o -> attemptOf(DispatchStatusJson.dispatchOf(o.path("status")))).orElse(null);
        String provisioningWait = dispatcher.provisioning.waitingLine(key);
        if (attempt != null && provisioningWait != null) attempt = attempt.withReason(provisioningWait);
        var advice = state.controller.advise(key, reader.usablePriorityClasses(new StoredPriorities(state).workloadPriorityClasses()));
        return Explainer.explain(diagnosis, new DispatchFacts(check, placement, attempt), capacity(), advice, reader.scope());
    }

    private List<QuotaAgainstCapacity.Row> capacity() {
        return QuotaAgainstCapacity.of(state.controller.quotaSnapshot(), clustersView.rows());
    }

    static RemoteAttempt attemptOf(DispatchStatus dispatch) {
        if (dispatch == null) return null;
        DispatchStatus.PodCounts pods = dispatch.pods() == null ? new DispatchStatus.PodCounts(0, 0, 0) : dispatch.pods();
        return new RemoteAttempt(dispatch.cluster(), dispatch.attemptId(), dispatch.phase(), dispatch.reason(), dispatch.message(),
                pods.running(), pods.succeeded(), pods.failed(), dispatch.podProblems().stream()
                .map(p -> new RemoteAttempt.PodProblem(p.pod(), p.container(), p.reason(), p.message())).toList(),
                dispatch.topologyAssignments());
    }

    private Object pendingInClusterQueue(RoutingContext ctx, String apiVersion) {
        int[] page = page(ctx);
        String cq = ctx.pathParam("cq");
        List<PendingWorkloadView> inOrder = state.controller.pendingWorkloads(cq)
                .orElseThrow(() -> ApiException.notFound(Resources.CLUSTER_QUEUES, cq));
        return summary(apiVersion, PendingWorkloads.page(inOrder, null, null, page[0], page[1]));
    }

    private Object pendingInLocalQueue(RoutingContext ctx, String apiVersion) {
        int[] page = page(ctx);
        String ns = ctx.pathParam("ns");
        String lq = ctx.pathParam("lq");
        String cq = state.controller.clusterQueueOf(ns, lq).orElseThrow(() -> ApiException.notFound(Resources.LOCAL_QUEUES, lq));
        List<PendingWorkloadView> inOrder = state.controller.pendingWorkloads(cq).orElse(List.of());
        return summary(apiVersion, PendingWorkloads.page(inOrder, ns, lq, page[0], page[1]));
    }

    /** offset and limit, validated: non-negative integers. */
    private static int[] page(RoutingContext ctx) {
        return new int[] {nonNegative(ctx, "offset", 0), nonNegative(ctx, "limit", PendingWorkloads.DEFAULT_LIMIT)};
    }

    private static int nonNegative(RoutingContext ctx, String param, int fallback) {
        String value = ctx.request().getParam(param);
        if (value == null || value.isEmpty()) return fallback;
        try {
            int parsed = Integer.parseInt(value);
            if (parsed >= 0) return parsed;
        } catch (NumberFormatException notANumber) {
            // reported below
        }
        throw ApiException.badRequest("invalid query parameter " + param + "=\"" + value + "\": must be a non-negative integer");
    }

    private static Map<String, Object> summary(String apiVersion, List<PendingWorkloads.Item> items) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("kind", VisibilityApi.PENDING_WORKLOADS_SUMMARY);
        body.put("apiVersion", apiVersion);
        body.put("metadata", Map.of());
        body.put("items", items.stream().map(item -> {
            Map<String, Object> metadata = new LinkedHashMap<>();
            metadata.put("name", item.name());
            metadata.put("namespace", item.namespace());
            metadata.put("creationTimestamp", java.time.Instant.ofEpochMilli(item.creationMillis()).truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString());
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("metadata", metadata);
            m.put("priority", item.priority());
            m.put("localQueueName", item.localQueueName());
            m.put("positionInClusterQueue", item.positionInClusterQueue());
            m.put("positionInLocalQueue", item.positionInLocalQueue());
            m.put("pendingReason", item.pendingReason());
            return m;
        }).toList());
        return body;
    }

    private Object borrowing(String cohort) {
        List<BorrowingLedger.CohortLedger> ledgers = BorrowingLedger.of(state.controller.quotaSnapshot());
        if (cohort != null && !cohort.isEmpty()) {
            ledgers = ledgers.stream().filter(l -> l.name().equals(cohort)).toList();
            if (ledgers.isEmpty()) throw ApiException.notFound(Resources.COHORTS, cohort);
        }
        return LedgerRendering.render(ledgers);
    }

    private void answer(RoutingContext ctx, Callable<Object> work) {
        CompletableFuture<Reply> reply = CompletableFuture.supplyAsync(() -> {
            try {
                return new Reply(200, JSON.valueToTree(work.call()));
            } catch (ApiException e) {
                return new Reply(e.code(), StatusBody.of(e));
            } catch (Exception e) {
                throw new CompletionException(e);
            }
        }, stateThread);
        Future.fromCompletionStage(reply, ctx.vertx().getOrCreateContext())
                .onSuccess(r -> send(ctx, r))
                .onFailure(e -> {
                    log.atError().addKeyValue("path", ctx.request().path()).setCause(e).log("diagnosis request failed");
                    send(ctx, new Reply(500, StatusBody.of(ApiException.internal())));
                });
    }

    private record Reply(int code, ObjectNode body) {
    }

    private static void send(RoutingContext ctx, Reply reply) {
        if (ctx.response().ended()) return;
        ctx.response().setStatusCode(reply.code()).putHeader("content-type", "application/json").end(reply.body().toString());
    }
}
