package dev.berth.manager.dispatch;

import dev.berth.manager.dispatch.FenceCommand.CreateSuperseded;
import dev.berth.manager.dispatch.FenceCommand.DeleteAndList;
import dev.berth.manager.dispatch.FenceCommand.HoldChanged;
import dev.berth.manager.dispatch.FenceCommand.Lifted;
import dev.berth.manager.dispatch.FenceCommand.PersistHolds;
import dev.berth.manager.dispatch.FenceCommand.Released;
import dev.berth.manager.model.WorkloadKey;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The fences an old attempt leaves, decided (docs/failover.md, "A dead or frozen agent", "A create the cluster never
 * acknowledged", "A dead leader's unconfirmed dispatch", "Evicted while running"): never two live copies. A workload is
 * held back from redispatch ({@link #hold}) while an older attempt of it may still run on a cluster (a fence on its pods:
 * every poll the edge deletes the attempt's objects there and lists its pods, until {@link RedispatchGate} lets it go) or
 * still start there (an unconfirmed create: held until the lease it carried has run out, or until
 * {@link SupersededCreate} proves the agent refuses it, when it becomes a fence on the attempt's pods). A create answered
 * after its attempt was abandoned lifts its hold at once. Every raise and lift is persisted (status.dispatchHolds), so a
 * new leader holds the workload again ({@link #restore}). Events in (raise, answers, polls, the poll's tick), commands
 * out; one delete-and-list in flight per workload and cluster. Pure; the state thread only.
 */
public final class FenceDecision {
    private final RedispatchGate gate;
    /** This manager's fencing epoch: a create restored from an earlier manager's hold carries at most one less. */
    private final long epoch;
    /** Per workload, per cluster, the old attempt being fenced. */
    private final Map<WorkloadKey, Map<String, OldAttemptFence>> fences = new HashMap<>();
    private final Map<WorkloadKey, String> messages = new HashMap<>();
    /** The delete-and-list calls in flight ("namespace/name/cluster"). */
    private final Set<String> inFlight = new HashSet<>();
    /** Per unconfirmed create ("namespace/name cluster attempt"), the highest epoch it can carry. */
    private final Map<String, Long> createEpochs = new HashMap<>();

    /**
     * @param maxWait how long a fence on old pods holds at most (workerLostTimeout)
     * @param epoch   this manager's fencing epoch
     */
    public FenceDecision(Duration maxWait, long epoch) {
        this.gate = new RedispatchGate(maxWait);
        this.epoch = epoch;
    }

    /** Why the workload may not be dispatched now, or null when it may. */
    public String hold(WorkloadKey key) {
        return fences.containsKey(key) ? messages.get(key) : null;
    }

    /** Holds the workload back until the attempt's pods on the cluster are stopped. */
    public List<FenceCommand> raise(WorkloadKey key, String cluster, String attemptId, Instant leaseGoneAt, Instant now) {
        return raise(key, cluster, attemptId, leaseGoneAt, false, now);
    }

    /** As above; {@code agentLost} when the cluster's agent is lost: the lease running out then never lifts the fence. */
    public List<FenceCommand> raise(WorkloadKey key, String cluster, String attemptId, Instant leaseGoneAt, boolean agentLost, Instant now) {
        put(key, OldAttemptFence.raised(cluster, attemptId, now, leaseGoneAt, agentLost), now);
        return List.of(persist(key));
    }

    /**
     * Holds the workload back until the lease of an attempt whose create the cluster never acknowledged has surely run out:
     * the create may still arrive. Nothing to hold (no command) when it has run out already, or when the cluster holds a
     * fence on old pods.
     *
     * @param createEpochAtMost the highest epoch that create can carry (this manager's own, or less for an earlier one's)
     */
    public List<FenceCommand> raiseUnconfirmed(WorkloadKey key, String cluster, String attemptId, Instant leaseGoneAt,
            long createEpochAtMost, Instant now) {
        if (!now.isBefore(leaseGoneAt)) return List.of();
        OldAttemptFence before = fences.getOrDefault(key, Map.of()).get(cluster);
        if (before != null && !before.unconfirmedCreate()) return List.of();
        put(key, OldAttemptFence.unconfirmed(cluster, attemptId, now, leaseGoneAt), now);
        createEpochs.put(createKey(key, cluster, attemptId), createEpochAtMost);
        return List.of(persist(key));
    }

    /**
     * The cluster answered the create of an attempt held as unconfirmed (it was abandoned while the create was in flight):
     * nothing more of it can arrive there, so that hold is lifted, and the workload released when nothing else holds it.
     */
    public List<FenceCommand> createAnswered(WorkloadKey key, String cluster, String attemptId) {
        Map<String, OldAttemptFence> byCluster = fences.get(key);
        OldAttemptFence fence = byCluster == null ? null : byCluster.get(cluster);
        if (fence == null || !fence.unconfirmedCreate() || !fence.attemptId().equals(attemptId)) return List.of();
        byCluster.remove(cluster);
        createEpochs.remove(createKey(key, cluster, attemptId));
        PersistHolds persisted = persist(key);
        if (!byCluster.isEmpty()) return List.of(persisted);
        fences.remove(key);
        messages.remove(key);
        return List.of(persisted, new Released(key));
    }

    /**
     * A fence a previous leader raised and kept in the workload's status: held again, as it was (a fence on old pods starts
     * its listings over; its bounded wait still counts from when it was raised). Already persisted: no command.
     */
    public void restore(WorkloadKey key, OldAttemptFence fence, Instant now) {
        put(key, fence, now);
        // an earlier manager raised it, about a create it sent with its own, lower epoch: every start raises the epoch
        if (fence.unconfirmedCreate()) createEpochs.put(createKey(key, fence.cluster(), fence.attemptId()), epoch - 1);
    }

    /**
     * A poll of the cluster: an unconfirmed create there that the agent will refuse from now on, and that the listing does not
     * show ({@link SupersededCreate}), is held no longer for its lease; its workload is held instead until listings find no pod
     * of the attempt running (a copy that landed and was deleted meanwhile).
     */
    public List<FenceCommand> supersede(String cluster, SupersededCreate.Poll poll, Instant now) {
        List<FenceCommand> commands = new ArrayList<>();
        for (WorkloadKey key : new ArrayList<>(fences.keySet())) {
            OldAttemptFence fence = fences.get(key).get(cluster);
            if (fence == null || !fence.unconfirmedCreate()) continue;
            Long createEpoch = createEpochs.get(createKey(key, cluster, fence.attemptId()));
            if (createEpoch == null) continue;
            SupersededCreate.Verdict verdict = SupersededCreate.decide(fence, createEpoch, poll, now);
            if (!verdict.superseded()) continue;
            createEpochs.remove(createKey(key, cluster, fence.attemptId()));
            put(key, SupersededCreate.podHoldFor(fence), now);
            commands.add(persist(key));
            commands.add(new CreateSuperseded(key, cluster, fence.attemptId(), poll.agentEpoch(), verdict.message()));
        }
        return commands;
    }

    /**
     * One round, every poll: decides each fence over its cluster's health; lifts those the gate lets go, and has the
     * others' old objects deleted and pods listed (not an unconfirmed create's: it may arrive after any deletion; not where
     * such a call is in flight, or this manager cannot call the cluster). A workload whose holds are all lifted is
     * released; one whose hold's message changed is placed again to say so. Commands go to {@code out} as decided.
     */
    public void advance(Function<String, ClusterHealth> health, Predicate<String> callable, Instant now, Consumer<FenceCommand> out) {
        for (WorkloadKey key : new ArrayList<>(fences.keySet())) {
            Map<String, OldAttemptFence> byCluster = fences.get(key);
            if (byCluster == null) continue;
            int before = byCluster.size();
            List<String> waiting = new ArrayList<>();
            for (OldAttemptFence fence : new ArrayList<>(byCluster.values())) {
                RedispatchGate.Verdict verdict = gate.decide(fence, health.apply(fence.cluster()), now);
                if (verdict.mayRedispatch()) {
                    byCluster.remove(fence.cluster());
                    createEpochs.remove(createKey(key, fence.cluster(), fence.attemptId()));
                    out.accept(new Lifted(key, fence, verdict));
                } else {
                    waiting.add(verdict.message());
                    if (!fence.unconfirmedCreate()) deleteAndList(key, fence, callable, out);
                }
            }
            if (byCluster.size() < before) out.accept(persist(key));
            String message = byCluster.isEmpty() ? null : String.join("; ", waiting);
            if (message == null) {
                fences.remove(key);
                messages.remove(key);
                out.accept(new Released(key));
            } else if (!message.equals(messages.put(key, message))) {
                out.accept(new HoldChanged(key));
            }
        }
    }

    private void deleteAndList(WorkloadKey key, OldAttemptFence fence, Predicate<String> callable, Consumer<FenceCommand> out) {
        String call = call(key, fence.cluster());
        if (inFlight.contains(call) || !callable.test(fence.cluster())) return;
        inFlight.add(call);
        out.accept(new DeleteAndList(key, fence.cluster(), fence.attemptId()));
    }

    /**
     * A delete-and-list answered: {@code livePods} of the attempt's pods are not yet Succeeded or Failed. Recorded on the
     * fence if it still holds that attempt there (true); a fence lifted or replaced meanwhile ignores it (false).
     */
    public boolean listed(WorkloadKey key, String cluster, String attemptId, int livePods) {
        inFlight.remove(call(key, cluster));
        Map<String, OldAttemptFence> byCluster = fences.get(key);
        OldAttemptFence current = byCluster == null ? null : byCluster.get(cluster);
        if (current == null || !current.attemptId().equals(attemptId)) return false;
        byCluster.put(cluster, current.listed(livePods));
        return true;
    }

    /** A delete-and-list failed: tried again at the next round. True when the fence still holds that attempt there. */
    public boolean listingFailed(WorkloadKey key, String cluster, String attemptId) {
        inFlight.remove(call(key, cluster));
        Map<String, OldAttemptFence> byCluster = fences.get(key);
        OldAttemptFence current = byCluster == null ? null : byCluster.get(cluster);
        return current != null && current.attemptId().equals(attemptId);
    }

    /** The workload's fences, in the order raised (for tests and views). */
    public List<OldAttemptFence> fences(WorkloadKey key) {
        return List.copyOf(fences.getOrDefault(key, Map.of()).values());
    }

    /** Holds the workload with the fence, and words why as the gate would for a fresh one of its kind. */
    private void put(WorkloadKey key, OldAttemptFence fence, Instant now) {
        fences.computeIfAbsent(key, k -> new LinkedHashMap<>()).put(fence.cluster(), fence);
        ClusterHealth assumed = fence.unconfirmedCreate() ? ClusterHealth.HEALTHY : ClusterHealth.AGENT_LOST;
        messages.put(key, gate.decide(fence, assumed, now).message());
    }

    private PersistHolds persist(WorkloadKey key) {
        return new PersistHolds(key, List.copyOf(fences.getOrDefault(key, Map.of()).values()));
    }

    private static String call(WorkloadKey key, String cluster) {
        return key + "/" + cluster;
    }

    private static String createKey(WorkloadKey key, String cluster, String attemptId) {
        return key + " " + cluster + " " + attemptId;
    }
}
