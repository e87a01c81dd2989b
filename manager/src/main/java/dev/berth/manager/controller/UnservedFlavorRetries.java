package dev.berth.manager.controller;

import dev.berth.manager.core.AdmissionCheckState;
import dev.berth.manager.dispatch.ClusterView;
import dev.berth.manager.dispatch.PlacementRequest;
import dev.berth.manager.dispatch.UnservedFlavorOptions;
import dev.berth.manager.dispatch.UnservedFlavors;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.objects.MultiKueueDecoder;
import dev.berth.protocol.Conditions.CheckStates;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Acts on {@link UnservedFlavors} for the dispatcher (issue 20, rule 2): a workload that holds quota
 * in a flavor no connected worker cluster of its MultiKueueConfig offers gets its check's Pending
 * message saying so, and after the timeout its MultiKueue check turns Retry (Kueue's admission-check
 * Retry: evicted, quota released, requeued after a backoff), and its flavor assignment skips that
 * flavor until a connected cluster of its config offers it. On the state thread.
 */
final class UnservedFlavorRetries {
    private static final Logger log = LoggerFactory.getLogger(UnservedFlavorRetries.class);

    private final ManagerState state;
    private final UnservedFlavorOptions options;
    private final UnservedFlavors rule;

    UnservedFlavorRetries(ManagerState state, Clock clock, UnservedFlavorOptions options) {
        this.state = state;
        this.options = options;
        this.rule = new UnservedFlavors(clock, options);
    }

    /**
     * The workload was not placed: the message its check should show while it waits, or null when its
     * check turned Retry now (its quota is released; nothing more to write).
     */
    String notPlaced(WorkloadKey key, AdmissionCheckState check, PlacementRequest request, String config,
                     List<ClusterView> views, String placementMessage) {
        UnservedFlavors.Verdict verdict = rule.observe(key, request.flavors(), views);
        switch (verdict.state()) {
            case SERVED, NO_CLUSTER_REPORTING -> {
                return placementMessage;
            }
            case WAITING -> {
                return verdict.message();
            }
            default -> {
                retry(key, check, request, config, verdict);
                return null;
            }
        }
    }

    private void retry(WorkloadKey key, AdmissionCheckState check, PlacementRequest request, String config,
                       UnservedFlavors.Verdict verdict) {
        Set<String> avoided = rule.retried(key, verdict, request.flavors(), config);
        int requeueAfter = options.requeueAfterSeconds(check.retryCount() + 1);
        log.atWarn().addKeyValue("workload", key).addKeyValue("flavors", String.join(",", avoided))
                .addKeyValue("requeueAfterSeconds", requeueAfter).log("releasing quota: " + verdict.message());
        state.controller.avoidFlavors(key, avoided);
        state.controller.setAdmissionCheckState(key, check.name(), CheckStates.RETRY, verdict.message(), requeueAfter);
        // The eviction reset the check to Pending with no message (Kueue's resetChecksOnEviction); the check's
        // controller says why the workload waits, so explain and kubectl show the missing flavor.
        state.controller.setAdmissionCheckState(key, check.name(), CheckStates.PENDING, verdict.message());
    }

    /** Placed, or no longer holding quota: its unserved clock stops. */
    void forget(WorkloadKey key) {
        rule.forget(key);
    }

    /** The workload no longer holds quota (its timer stops), or is gone (everything about it is dropped). */
    void stopped(WorkloadKey key, boolean deleted) {
        if (deleted) rule.deleted(key);
        else rule.forget(key);
    }

    /** The clusters of a MultiKueueConfig as they are now (one added since included); none when it is gone. */
    private List<ClusterView> clustersOfConfig(String configName, Function<String, ClusterView> view) {
        return state.find(Resources.MULTIKUEUE_CONFIGS.resource(), "", configName).map(MultiKueueDecoder::decodeConfig)
                .map(config -> config.clusters().stream().map(view).toList()).orElse(List.of());
    }

    /** Workloads whose timeout has passed: the dispatcher looks at them again. */
    List<WorkloadKey> due() {
        return rule.due();
    }

    /** A cluster connected, reported or changed: what a connected cluster offers again is no longer avoided. */
    boolean clustersChanged(Function<String, ClusterView> view) {
        Map<WorkloadKey, Set<String>> changed = rule.refresh(configName -> clustersOfConfig(configName, view));
        changed.forEach((key, still) -> {
            log.atInfo().addKeyValue("workload", key).addKeyValue("flavors", String.join(",", still))
                    .log("a connected worker cluster offers a flavor the workload avoided; it may use it again");
            state.controller.avoidFlavors(key, still);
        });
        return !changed.isEmpty();
    }
}
