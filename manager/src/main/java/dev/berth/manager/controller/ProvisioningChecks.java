package dev.berth.manager.controller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.core.AdmissionCheckState;
import dev.berth.manager.core.WorkloadStatus;
import dev.berth.manager.dispatch.ProvisioningCheckPolicy;
import dev.berth.manager.dispatch.ProvisioningCheckPolicy.RequestReport;
import dev.berth.manager.dispatch.ProvisioningCheckPolicy.Verdict;
import dev.berth.manager.dispatch.ProvisioningRequestNames;
import dev.berth.manager.model.ProvisioningConfig;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.protocol.Conditions;
import dev.berth.protocol.Conditions.CheckStates;
import dev.berth.protocol.KueueApi;
import dev.berth.protocol.Provisioning;
import dev.berth.protocol.crd.ProvisioningAsk;
import dev.berth.protocol.crd.RemoteWorkloadPhase;
import dev.berth.protocol.crd.RemoteWorkloadStatus;
import java.time.Clock;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Provisioning admission checks across clusters. At dispatch the attempt carries a {@link ProvisioningAsk}
 * (Kueue's request name for the check's next attempt, the config's class, parameters and managed resources),
 * so the worker's agent may ask its autoscaler for capacity instead of reporting the attempt unplaceable.
 * What the agent then reports of the request sets the check as Kueue's provisioning controller would
 * ({@link ProvisioningCheckPolicy}); a copy admitted without a request makes the check Ready with Kueue's
 * "not needed" message. The latest report per workload feeds explain's waiting line.
 */
final class ProvisioningChecks {
    private static final Logger log = LoggerFactory.getLogger(ProvisioningChecks.class);

    private final ManagerState state;
    private final Clock clock;
    private final AdmissionCheckReads checks;
    private final Map<WorkloadKey, Waiting> waiting = new HashMap<>();

    private record Waiting(RequestReport report, ProvisioningConfig.RetryStrategy retry) {}

    ProvisioningChecks(ManagerState state, Clock clock, AdmissionCheckReads checks) {
        this.state = state;
        this.clock = clock;
        this.checks = checks;
    }

    /** Only a provisioning check's object is read whole: the others' controller is known without parsing them. */
    private ObjectNode provisioningCheck(String name) {
        if (!KueueApi.PROVISIONING_REQUEST_CONTROLLER.equals(checks.controllerOf(name))) return null;
        return state.find(Resources.ADMISSION_CHECKS.resource(), "", name).orElse(null);
    }

    /** The request the attempt may make, or null: no provisioning check, its config missing, or nothing it manages. */
    ProvisioningAsk askFor(WorkloadKey key, ObjectNode workload, WorkloadStatus status) {
        for (AdmissionCheckState check : status.admissionChecks()) {
            ObjectNode object = provisioningCheck(check.name());
            if (object == null || !ProvisioningHooks.isProvisioningCheck(object)) continue;
            ProvisioningConfig config = ProvisioningHooks.configOf(state, object).orElse(null);
            if (config == null) {
                write(key, check, new Verdict(CheckStates.PENDING, ProvisioningCheckPolicy.CHECK_INACTIVE, null));
                continue;
            }
            if (!requestsManaged(workload, config)) {
                write(key, check, new Verdict(CheckStates.READY, ProvisioningCheckPolicy.NO_REQUEST_NEEDED, null));
                continue;
            }
            int attempt = ProvisioningCheckPolicy.nextAttempt(check.retryCount());
            ProvisioningAsk ask = new ProvisioningAsk();
            ask.setCheck(check.name());
            ask.setAttempt(attempt);
            ask.setRequestName(ProvisioningRequestNames.request(key.name(), check.name(), attempt));
            ask.setProvisioningClassName(config.provisioningClassName());
            Map<String, String> parameters = new LinkedHashMap<>(config.parameters());
            // Kueue's passProvReqParams: the workload's provreq.kueue.x-k8s.io/ annotations become parameters
            workload.path("metadata").path("annotations").properties().forEach(e -> {
                if (e.getKey().startsWith(Provisioning.PARAMETER_ANNOTATION_PREFIX)) {
                    parameters.put(e.getKey().substring(Provisioning.PARAMETER_ANNOTATION_PREFIX.length()), e.getValue().asText());
                }
            });
            ask.setParameters(parameters);
            ask.setManagedResources(config.managedResources());
            return ask;
        }
        return null;
    }

    /** What a cluster reported of the current copy: the provisioning check follows its request, or turns Ready once admitted without one. */
    void reported(WorkloadKey key, String cluster, RemoteWorkloadStatus remote) {
        WorkloadStatus status = state.controller.statusOf(key);
        if (status == null) return;
        for (AdmissionCheckState check : status.admissionChecks()) {
            ObjectNode object = provisioningCheck(check.name());
            if (object == null || !ProvisioningHooks.isProvisioningCheck(object)) continue;
            ProvisioningConfig config = ProvisioningHooks.configOf(state, object).orElse(null);
            if (config == null) continue;
            RequestReport report = ProvisioningReports.of(cluster, key.namespace(), remote);
            if (report == null) {
                waiting.remove(key);
                boolean started = RemoteWorkloadPhase.ADMITTED.equals(remote.getPhase()) || RemoteWorkloadPhase.RUNNING.equals(remote.getPhase());
                if (started && !CheckStates.READY.equals(check.state())) {
                    write(key, check, new Verdict(CheckStates.READY, ProvisioningCheckPolicy.NO_REQUEST_NEEDED, null));
                }
                continue;
            }
            Verdict verdict = ProvisioningCheckPolicy.decide(report, config.retryStrategy(), check.retryCount(), status.isTrue(Conditions.ADMITTED));
            if (CheckStates.PENDING.equals(verdict.state())) waiting.put(key, new Waiting(report, config.retryStrategy()));
            else waiting.remove(key);
            if (CheckStates.READY.equals(check.state()) && CheckStates.READY.equals(verdict.state())) continue;
            write(key, check, verdict);
            if (!CheckStates.PENDING.equals(verdict.state())) {
                log.atInfo().addKeyValue("workload", key).addKeyValue("cluster", cluster).addKeyValue("attempt", report.attempt())
                        .addKeyValue("check", check.name()).log("provisioning check " + verdict.state() + ": " + verdict.message());
            }
        }
    }

    /**
     * No cluster has room now: place on a cluster that can grow for it (its agent reports autoscaling capacity),
     * with the reasons of the others kept; the decision unchanged when none can.
     */
    dev.berth.manager.dispatch.PlacementDecision scaleUp(dev.berth.manager.dispatch.PlacementDecision none,
                                                        dev.berth.manager.dispatch.PlacementRequest request,
                                                        java.util.List<dev.berth.manager.dispatch.ClusterView> views,
                                                        java.util.function.Function<String, Map<String, dev.berth.manager.dispatch.ScalableCapacity>> scalable) {
        Map<String, Map<String, dev.berth.manager.dispatch.ScalableCapacity>> byCluster = new HashMap<>();
        for (var view : views) byCluster.put(view.name(), scalable.apply(view.name()));
        return dev.berth.manager.dispatch.ScalablePlacement.choose(request, views, byCluster).map(choice -> {
            log.atInfo().addKeyValue("workload", request.workload()).addKeyValue("cluster", choice.cluster())
                    .log("no cluster has room now: placed on a cluster that can add " + choice.nodesToAdd() + " node(s) on request");
            Map<String, String> others = new LinkedHashMap<>(none.rejections());
            others.remove(choice.cluster());
            return new dev.berth.manager.dispatch.PlacementDecision(java.util.List.of(choice.cluster()), others, Map.of());
        }).orElse(none);
    }

    /** Explain's line for a workload whose copy waits for a ProvisioningRequest, with how long; null otherwise. */
    String waitingLine(WorkloadKey key) {
        Waiting entry = waiting.get(key);
        return entry == null ? null : ProvisioningCheckPolicy.waitingLine(entry.report(), entry.retry(), clock.instant());
    }

    /** Drops what is kept of workloads that no longer exist or hold no quota. */
    void forgetUnless(java.util.function.Predicate<WorkloadKey> current) {
        for (Iterator<WorkloadKey> it = waiting.keySet().iterator(); it.hasNext(); ) {
            if (!current.test(it.next())) it.remove();
        }
    }

    private void write(WorkloadKey key, AdmissionCheckState check, Verdict verdict) {
        if (verdict.state().equals(check.state()) && Objects.equals(verdict.message(), check.message())) return;
        state.controller.setAdmissionCheckState(key, check.name(), verdict.state(), verdict.message(), verdict.requeueAfterSeconds());
    }

    /** Kueue's reqIsNeeded: with managedResources, only pod sets requesting one of them need capacity. */
    static boolean requestsManaged(JsonNode workload, ProvisioningConfig config) {
        if (config.managedResources().isEmpty()) return true;
        for (JsonNode podSet : workload.path("spec").path("podSets")) {
            JsonNode spec = podSet.path("template").path("spec");
            for (String list : new String[] {"containers", "initContainers"}) {
                for (JsonNode container : spec.path(list)) {
                    for (String resource : config.managedResources()) {
                        if (container.path("resources").path("requests").has(resource)
                                || container.path("resources").path("limits").has(resource)) return true;
                    }
                }
            }
        }
        return false;
    }
}
