package dev.berth.manager.controller;

import dev.berth.manager.clusters.WorkerClusters;
import dev.berth.manager.dispatch.ClusterHealth;
import dev.berth.manager.dispatch.OldAttemptFence;
import dev.berth.manager.dispatch.RedispatchGate;
import dev.berth.manager.dispatch.SupersededCreate;
import dev.berth.manager.model.WorkloadKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Never two live copies when an agent dies but its cluster's API answers: a workload evicted from
 * such a cluster is held back from redispatch ({@link #hold}) while, every poll, the manager deletes
 * the old attempt's objects there and lists its pods ({@code ClusterCalls.fenceAttempt}), until
 * {@link RedispatchGate} lets it go (pods confirmed stopped, the API went silent after the lease ran
 * out, or the bounded wait passed). Nor when a create was never acknowledged: the workload is held
 * until that attempt's lease has run out ({@link #raiseUnconfirmed}). State thread only.
 */
final class OldAttemptFences {
    private static final Logger log = LoggerFactory.getLogger(OldAttemptFences.class);

    private final Clock clock;
    private final RedispatchGate gate;
    /** Per workload, per lost cluster, the old attempt being fenced. */
    private final Map<WorkloadKey, Map<String, OldAttemptFence>> fences = new HashMap<>();
    private final Map<WorkloadKey, String> messages = new HashMap<>();
    private final Set<String> inFlight = new HashSet<>();
    /** Where a workload's fences are kept across restarts (its status); called with none when the last is lifted. */
    private final BiConsumer<WorkloadKey, Collection<OldAttemptFence>> saved;

    /** Per unconfirmed create ("namespace/name cluster attempt"), the highest epoch it can carry. */
    private final Map<String, Long> createEpochs = new HashMap<>();
    private final long epoch;

    OldAttemptFences(Clock clock, Duration maxWait, long epoch, BiConsumer<WorkloadKey, Collection<OldAttemptFence>> saved) {
        this.clock = clock;
        this.saved = saved;
        this.gate = new RedispatchGate(maxWait);
        this.epoch = epoch;
    }

    /** Holds the workload back until the attempt's pods on the cluster are stopped. */
    void raise(WorkloadKey key, String cluster, String attemptId, Instant leaseGoneAt) {
        put(key, OldAttemptFence.raised(cluster, attemptId, clock.instant(), leaseGoneAt));
        saved.accept(key, fences.get(key).values());
        log.atInfo().addKeyValue("workload", key).addKeyValue("cluster", cluster).addKeyValue("attempt", attemptId)
                .log("redispatch held until the old attempt's pods stop: " + messages.get(key));
    }

    /**
     * Holds the workload back until the lease of an attempt whose create the cluster never acknowledged
     * has surely run out: the create may still arrive. Nothing to hold when it has run out already.
     */
    boolean raiseUnconfirmed(WorkloadKey key, String cluster, String attemptId, Instant leaseGoneAt, long createEpochAtMost, String why) {
        Instant now = clock.instant();
        if (!now.isBefore(leaseGoneAt)) return false;
        OldAttemptFence before = fences.getOrDefault(key, Map.of()).get(cluster);
        if (before != null && !before.unconfirmedCreate()) return false;
        put(key, OldAttemptFence.unconfirmed(cluster, attemptId, now, leaseGoneAt));
        createEpochs.put(createKey(key, cluster, attemptId), createEpochAtMost);
        saved.accept(key, fences.get(key).values());
        log.atWarn().addKeyValue("workload", key).addKeyValue("cluster", cluster).addKeyValue("attempt", attemptId)
                .log("redispatch held, " + why + ": " + messages.get(key));
        return true;
    }

    /**
     * The cluster answered the create of an attempt held as unconfirmed (it was abandoned while the create
     * was in flight): nothing more of it can arrive there, so that hold is lifted. True when the workload
     * is held by nothing else now.
     */
    boolean createAnswered(WorkloadKey key, String cluster, String attemptId) {
        Map<String, OldAttemptFence> byCluster = fences.get(key);
        OldAttemptFence fence = byCluster == null ? null : byCluster.get(cluster);
        if (fence == null || !fence.unconfirmedCreate() || !fence.attemptId().equals(attemptId)) return false;
        byCluster.remove(cluster);
        createEpochs.remove(createKey(key, cluster, attemptId));
        log.atInfo().addKeyValue("workload", key).addKeyValue("cluster", cluster).addKeyValue("attempt", attemptId)
                .log("the cluster answered the create it was held for: hold lifted");
        saved.accept(key, List.copyOf(byCluster.values()));
        if (!byCluster.isEmpty()) return false;
        fences.remove(key);
        messages.remove(key);
        return true;
    }

    /**
     * A fence a previous leader raised and kept in the workload's status: held again, as it was (a fence
     * on old pods starts its listings over; its bounded wait still counts from when it was raised).
     */
    void restore(WorkloadKey key, OldAttemptFence fence) {
        put(key, fence);
        // an earlier manager raised it, about a create it sent with its own, lower epoch: every start raises the epoch
        if (fence.unconfirmedCreate()) createEpochs.put(createKey(key, fence.cluster(), fence.attemptId()), epoch - 1);
        log.atInfo().addKeyValue("workload", key).addKeyValue("cluster", fence.cluster()).addKeyValue("attempt", fence.attemptId())
                .log("redispatch held again after a restart: " + messages.get(key));
    }

    /**
     * A poll of the cluster: an unconfirmed create there that the agent will refuse from now on, and that the
     * listing does not show ({@link SupersededCreate}), is held no longer for its lease; its workload is held
     * instead until listings find no pod of the attempt running (a copy that landed and was deleted meanwhile).
     */
    void supersede(String cluster, SupersededCreate.Poll poll) {
        Instant now = clock.instant();
        for (WorkloadKey key : new ArrayList<>(fences.keySet())) {
            OldAttemptFence fence = fences.get(key).get(cluster);
            if (fence == null || !fence.unconfirmedCreate()) continue;
            Long createEpoch = createEpochs.get(createKey(key, cluster, fence.attemptId()));
            if (createEpoch == null) continue;
            SupersededCreate.Verdict verdict = SupersededCreate.decide(fence, createEpoch, poll, now);
            if (!verdict.superseded()) continue;
            createEpochs.remove(createKey(key, cluster, fence.attemptId()));
            put(key, SupersededCreate.podHoldFor(fence));
            saved.accept(key, List.copyOf(fences.get(key).values()));
            log.atInfo().addKeyValue("workload", key).addKeyValue("cluster", cluster).addKeyValue("attempt", fence.attemptId())
                    .addKeyValue("agentEpoch", poll.agentEpoch()).log("unconfirmed create superseded: " + verdict.message());
        }
    }

    private static String createKey(WorkloadKey key, String cluster, String attemptId) {
        return key + " " + cluster + " " + attemptId;
    }

    /** Holds the workload with the fence, and words why as the gate would for a fresh one of its kind. */
    private void put(WorkloadKey key, OldAttemptFence fence) {
        fences.computeIfAbsent(key, k -> new LinkedHashMap<>()).put(fence.cluster(), fence);
        ClusterHealth assumed = fence.unconfirmedCreate() ? ClusterHealth.HEALTHY : ClusterHealth.AGENT_LOST;
        messages.put(key, gate.decide(fence, assumed, clock.instant()).message());
    }

    /** Why the workload may not be dispatched now, or null when it may. */
    String hold(WorkloadKey key) {
        return fences.containsKey(key) ? messages.get(key) : null;
    }

    /**
     * One round, every poll: decides each fence; lifts those the gate lets go (released receives the
     * workload, events the cluster event), and deletes-and-lists again for the others.
     */
    void advance(WorkerClusters clusters, ClusterActionEvents events, Consumer<WorkloadKey> changed) {
        Instant now = clock.instant();
        for (WorkloadKey key : new ArrayList<>(fences.keySet())) {
            Map<String, OldAttemptFence> byCluster = fences.get(key);
            int before = byCluster.size();
            List<String> waiting = new ArrayList<>();
            for (OldAttemptFence fence : new ArrayList<>(byCluster.values())) {
                RedispatchGate.Verdict verdict = gate.decide(fence, clusters.health(fence.cluster()).health(), now);
                if (verdict.mayRedispatch()) {
                    byCluster.remove(fence.cluster());
                    createEpochs.remove(createKey(key, fence.cluster(), fence.attemptId()));
                    lifted(key, fence, verdict, events);
                } else {
                    waiting.add(verdict.message());
                    // an unconfirmed create is not fenced by deleting: it may arrive after any deletion
                    if (!fence.unconfirmedCreate()) deleteAndList(key, fence, clusters);
                }
            }
            if (byCluster.size() < before) saved.accept(key, List.copyOf(byCluster.values()));
            String message = byCluster.isEmpty() ? null : String.join("; ", waiting);
            if (message == null) {
                fences.remove(key);
                messages.remove(key);
                changed.accept(key);
            } else if (!message.equals(messages.put(key, message))) {
                changed.accept(key);
            }
        }
    }

    private void lifted(WorkloadKey key, OldAttemptFence fence, RedispatchGate.Verdict verdict, ClusterActionEvents events) {
        var line = RedispatchGate.WAIT_EXCEEDED.equals(verdict.reason()) ? log.atWarn() : log.atInfo();
        line.addKeyValue("workload", key).addKeyValue("cluster", fence.cluster()).addKeyValue("attempt", fence.attemptId())
                .addKeyValue("reason", verdict.reason()).log("redispatch allowed: " + verdict.message());
        String message = "workload " + key + ": " + verdict.message();
        if (RedispatchGate.WAIT_EXCEEDED.equals(verdict.reason())) events.warning(fence.cluster(), verdict.reason(), message);
        else events.record(fence.cluster(), verdict.reason(), message);
    }

    private void deleteAndList(WorkloadKey key, OldAttemptFence fence, WorkerClusters clusters) {
        String call = key + "/" + fence.cluster();
        if (!inFlight.add(call)) return;
        var calls = clusters.calls(fence.cluster());
        if (calls.isEmpty()) {
            inFlight.remove(call);
            return;
        }
        clusters.onStateThread(calls.get().fenceAttempt(key.namespace(), key.name(), fence.attemptId()), done -> {
            inFlight.remove(call);
            Map<String, OldAttemptFence> byCluster = fences.get(key);
            OldAttemptFence current = byCluster == null ? null : byCluster.get(fence.cluster());
            if (current == null || !current.attemptId().equals(fence.attemptId())) return;
            if (done.failed()) {
                log.atWarn().addKeyValue("workload", key).addKeyValue("cluster", fence.cluster()).addKeyValue("attempt", fence.attemptId())
                        .log("old attempt's objects not deleted yet, retried at the next poll: " + done.cause().getMessage());
                return;
            }
            byCluster.put(fence.cluster(), current.listed(done.result()));
            log.atDebug().addKeyValue("workload", key).addKeyValue("cluster", fence.cluster()).addKeyValue("attempt", fence.attemptId())
                    .addKeyValue("livePods", done.result()).log("old attempt's objects deleted, pods listed");
        });
    }
}
