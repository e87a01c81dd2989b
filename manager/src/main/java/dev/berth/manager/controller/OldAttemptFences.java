package dev.berth.manager.controller;

import dev.berth.manager.clusters.WorkerClusters;
import dev.berth.manager.dispatch.ClusterHealth;
import dev.berth.manager.dispatch.FenceCommand;
import dev.berth.manager.dispatch.FenceCommand.CreateSuperseded;
import dev.berth.manager.dispatch.FenceCommand.DeleteAndList;
import dev.berth.manager.dispatch.FenceCommand.HoldChanged;
import dev.berth.manager.dispatch.FenceCommand.Lifted;
import dev.berth.manager.dispatch.FenceCommand.PersistHolds;
import dev.berth.manager.dispatch.FenceCommand.Released;
import dev.berth.manager.dispatch.FenceDecision;
import dev.berth.manager.dispatch.OldAttemptFence;
import dev.berth.manager.dispatch.RedispatchGate;
import dev.berth.manager.dispatch.SupersededCreate;
import dev.berth.manager.model.WorkloadKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the fences old attempts leave ({@link FenceDecision}, the pure decision: never two live copies when an agent
 * dies but its cluster's API answers, nor when a create was never acknowledged): hands it the raises, the creates'
 * answers, the polls and the poll's tick with the time, and runs its commands: keep the holds in the workload's status
 * ({@code saved}), delete the old attempt's objects and list its pods ({@code ClusterCalls.fenceAttempt}, whose answer
 * goes back to the decision), record the lifts as the cluster's events, and tell the dispatcher which workloads to place
 * again. State thread only; the calls answer back on it.
 */
final class OldAttemptFences {
    private static final Logger log = LoggerFactory.getLogger(OldAttemptFences.class);

    private final Clock clock;
    private final FenceDecision decision;
    /** Where a workload's fences are kept across restarts (its status); called with none when the last is lifted. */
    private final BiConsumer<WorkloadKey, Collection<OldAttemptFence>> saved;

    OldAttemptFences(Clock clock, Duration maxWait, long epoch, BiConsumer<WorkloadKey, Collection<OldAttemptFence>> saved) {
        this.clock = clock;
        this.saved = saved;
        this.decision = new FenceDecision(maxWait, epoch);
    }

    /** Holds the workload back until the attempt's pods on the cluster are stopped. */
    void raise(WorkloadKey key, String cluster, String attemptId, Instant leaseGoneAt, boolean agentLost) {
        runAll(decision.raise(key, cluster, attemptId, leaseGoneAt, agentLost, clock.instant()));
        log.atInfo().addKeyValue("workload", key).addKeyValue("cluster", cluster).addKeyValue("attempt", attemptId)
                .log("redispatch held until the old attempt's pods stop: " + decision.hold(key));
    }

    /**
     * Holds the workload back until the lease of an attempt whose create the cluster never acknowledged has surely run out
     * ({@link FenceDecision#raiseUnconfirmed}). False when there was nothing to hold.
     */
    boolean raiseUnconfirmed(WorkloadKey key, String cluster, String attemptId, Instant leaseGoneAt, long createEpochAtMost, String why) {
        List<FenceCommand> commands = decision.raiseUnconfirmed(key, cluster, attemptId, leaseGoneAt, createEpochAtMost, clock.instant());
        if (commands.isEmpty()) return false;
        runAll(commands);
        log.atWarn().addKeyValue("workload", key).addKeyValue("cluster", cluster).addKeyValue("attempt", attemptId)
                .log("redispatch held, " + why + ": " + decision.hold(key));
        return true;
    }

    /** The cluster answered the create of an attempt held as unconfirmed: that hold is lifted. True when nothing holds the workload now. */
    boolean createAnswered(WorkloadKey key, String cluster, String attemptId) {
        List<FenceCommand> commands = decision.createAnswered(key, cluster, attemptId);
        if (commands.isEmpty()) return false;
        log.atInfo().addKeyValue("workload", key).addKeyValue("cluster", cluster).addKeyValue("attempt", attemptId)
                .log("the cluster answered the create it was held for: hold lifted");
        runAll(commands);
        return commands.stream().anyMatch(Released.class::isInstance);
    }

    /** A fence a previous leader raised and kept in the workload's status: held again, as it was ({@link FenceDecision#restore}). */
    void restore(WorkloadKey key, OldAttemptFence fence) {
        decision.restore(key, fence, clock.instant());
        log.atInfo().addKeyValue("workload", key).addKeyValue("cluster", fence.cluster()).addKeyValue("attempt", fence.attemptId())
                .log("redispatch held again after a restart: " + decision.hold(key));
    }

    /** A poll of the cluster: unconfirmed creates there that the agent will refuse from now on become holds on their pods ({@link FenceDecision#supersede}). */
    void supersede(String cluster, SupersededCreate.Poll poll) {
        runAll(decision.supersede(cluster, poll, clock.instant()));
    }

    /** Why the workload may not be dispatched now, or null when it may. */
    String hold(WorkloadKey key) {
        return decision.hold(key);
    }

    /**
     * One round, every poll ({@link FenceDecision#advance}): lifts the fences the gate lets go (events receives the cluster
     * event), deletes-and-lists again for the others; {@code changed} receives each workload to place again.
     */
    void advance(WorkerClusters clusters, Function<String, ClusterHealth> health, ClusterActionEvents events,
            Consumer<WorkloadKey> changed) {
        decision.advance(health, cluster -> clusters.calls(cluster).isPresent(), clock.instant(),
                command -> run(command, clusters, events, changed));
    }

    private void runAll(List<FenceCommand> commands) {
        commands.forEach(command -> run(command, null, null, key -> {}));
    }

    private void run(FenceCommand command, WorkerClusters clusters, ClusterActionEvents events, Consumer<WorkloadKey> changed) {
        if (command instanceof PersistHolds persist) {
            saved.accept(persist.key(), persist.fences());
        } else if (command instanceof DeleteAndList call) {
            deleteAndList(call, clusters);
        } else if (command instanceof Lifted lifted) {
            lifted(lifted, events);
        } else if (command instanceof CreateSuperseded superseded) {
            log.atInfo().addKeyValue("workload", superseded.key()).addKeyValue("cluster", superseded.cluster())
                    .addKeyValue("attempt", superseded.attemptId()).addKeyValue("agentEpoch", superseded.agentEpoch())
                    .log("unconfirmed create superseded: " + superseded.why());
        } else if (command instanceof Released released) {
            changed.accept(released.key());
        } else if (command instanceof HoldChanged holdChanged) {
            changed.accept(holdChanged.key());
        }
    }

    private static void lifted(Lifted lifted, ClusterActionEvents events) {
        OldAttemptFence fence = lifted.fence();
        RedispatchGate.Verdict verdict = lifted.verdict();
        boolean gaveUp = lifted.gaveUp();
        (gaveUp ? log.atWarn() : log.atInfo()).addKeyValue("workload", lifted.key()).addKeyValue("cluster", fence.cluster())
                .addKeyValue("attempt", fence.attemptId()).addKeyValue("reason", verdict.reason()).log("redispatch allowed: " + verdict.message());
        String message = "workload " + lifted.key() + ": " + verdict.message();
        if (gaveUp) events.warning(fence.cluster(), verdict.reason(), message);
        else events.record(fence.cluster(), verdict.reason(), message);
    }

    private void deleteAndList(DeleteAndList call, WorkerClusters clusters) {
        WorkloadKey key = call.key();
        var calls = clusters.calls(call.cluster());
        if (calls.isEmpty()) {
            decision.listingFailed(key, call.cluster(), call.attemptId());
            return;
        }
        clusters.onStateThread(calls.get().fenceAttempt(key.namespace(), key.name(), call.attemptId()), done -> {
            if (done.failed()) {
                if (!decision.listingFailed(key, call.cluster(), call.attemptId())) return;
                log.atWarn().addKeyValue("workload", key).addKeyValue("cluster", call.cluster()).addKeyValue("attempt", call.attemptId())
                        .log("old attempt's objects not deleted yet, retried at the next poll: " + done.cause().getMessage());
                return;
            }
            if (!decision.listed(key, call.cluster(), call.attemptId(), done.result())) return;
            log.atDebug().addKeyValue("workload", key).addKeyValue("cluster", call.cluster()).addKeyValue("attempt", call.attemptId())
                    .addKeyValue("livePods", done.result()).log("old attempt's objects deleted, pods listed");
        });
    }
}
