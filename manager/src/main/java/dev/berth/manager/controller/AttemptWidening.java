package dev.berth.manager.controller;

import dev.berth.manager.clusters.WorkerClusters;
import dev.berth.manager.dispatch.CurrentAttempts;
import dev.berth.manager.dispatch.ClusterView;
import dev.berth.manager.dispatch.DispatchAttempt;
import dev.berth.manager.dispatch.DispatchStrategy;
import dev.berth.manager.dispatch.PlacementDecision;
import dev.berth.manager.dispatch.PlacementPolicy;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.protocol.crd.RemoteWorkload;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Incremental dispatch (MultiKueue parity): while no copy of an attempt is committed, the step's number of eligible
 * clusters is added every round; External: clusters nominated since are added, and reservations on clusters no
 * longer nominated are withdrawn (Kueue removes non-nominated remotes). The DispatchController's lease timer drives it.
 */
final class AttemptWidening {
    private final DispatchController dispatcher;
    private final ManagerState state;
    private final PlacementPolicy policy;
    private final CopyCommits commits;
    private final RemoteCreates creates;
    /** Per widening attempt (by id), the copy its new clusters are sent: the edge's part of the attempt, kept until it is retired. */
    private final Map<String, RemoteWorkload> templates = new HashMap<>();

    AttemptWidening(DispatchController dispatcher, ManagerState state, PlacementPolicy policy, CopyCommits commits, RemoteCreates creates) {
        this.dispatcher = dispatcher;
        this.state = state;
        this.policy = policy;
        this.commits = commits;
        this.creates = creates;
    }

    /** A new attempt: if it widens (Incremental, External), its copy is kept to send to the clusters it gains. */
    void dispatched(DispatchAttempt attempt, RemoteWorkload copy) {
        if (attempt.firstDispatch() != null) templates.put(attempt.id(), copy);
    }

    /** The attempt is no longer current: it gains no more clusters. */
    void retired(DispatchAttempt attempt) {
        templates.remove(attempt.id());
    }

    void widen(WorkerClusters clusters) {
        CurrentAttempts attempts = dispatcher.attempts();
        for (Map.Entry<WorkloadKey, DispatchAttempt> current : attempts.entries()) { // a copy: a withdrawal may retire the attempt
            WorkloadKey key = current.getKey();
            DispatchAttempt attempt = current.getValue();
            RemoteWorkload template = templates.get(attempt.id());
            if (template == null || attempt.winner() != null || attempt.committedTo() != null || attempt.withdrawing()) continue;
            List<ClusterView> views = attempt.configClusters().stream().map(clusters::view).toList();
            List<String> nominated = state.find(Resources.WORKLOADS.resource(), key.namespace(), key.name())
                    .map(RemoteWorkloads::nominatedClusters).orElse(List.of());
            if (attempt.strategy() == DispatchStrategy.EXTERNAL) commits.withdrawUnnominated(key, attempt, nominated);
            if (!attempts.isCurrent(key, attempt)) continue;
            PlacementDecision decision = policy.place(attempt.request(), views, attempt.strategy(), attempt.firstDispatch(), nominated);
            List<String> added = decision.clusters().stream().filter(c -> !attempt.clusters().contains(c)).toList();
            if (!added.isEmpty()) creates.send(key, attempt, template, added);
        }
    }
}
