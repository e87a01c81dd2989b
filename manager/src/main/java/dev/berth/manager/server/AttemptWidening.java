package dev.berth.manager.server;

import dev.berth.manager.clusters.WorkerClusters;
import dev.berth.manager.dispatch.ClusterView;
import dev.berth.manager.dispatch.DispatchStrategy;
import dev.berth.manager.dispatch.PlacementDecision;
import dev.berth.manager.dispatch.PlacementPolicy;
import dev.berth.manager.model.WorkloadKey;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Incremental dispatch (MultiKueue parity): while no copy of an attempt is committed, the step's number of eligible
 * clusters is added every round; External: clusters nominated since are added, and reservations on clusters no
 * longer nominated are withdrawn (Kueue removes non-nominated remotes). The Dispatcher's lease timer drives it.
 */
final class AttemptWidening {
    private final Dispatcher dispatcher;
    private final ManagerState state;
    private final PlacementPolicy policy;
    private final CopyCommits commits;
    private final RemoteCreates creates;

    AttemptWidening(Dispatcher dispatcher, ManagerState state, PlacementPolicy policy, CopyCommits commits, RemoteCreates creates) {
        this.dispatcher = dispatcher;
        this.state = state;
        this.policy = policy;
        this.commits = commits;
        this.creates = creates;
    }

    void widen(WorkerClusters clusters) {
        Map<WorkloadKey, DispatchAttempt> attempts = dispatcher.attempts();
        new HashMap<>(attempts).forEach((key, attempt) -> { // a copy: a withdrawal may retire the attempt
            if (attempt.firstDispatch == null || attempt.winner != null || attempt.committedTo != null || attempt.withdrawing) return;
            List<ClusterView> views = attempt.configClusters.stream().map(clusters::view).toList();
            List<String> nominated = state.find(Resources.WORKLOADS.resource(), key.namespace(), key.name())
                    .map(RemoteWorkloads::nominatedClusters).orElse(List.of());
            if (attempt.strategy == DispatchStrategy.EXTERNAL) commits.withdrawUnnominated(key, attempt, nominated);
            if (attempts.get(key) != attempt) return;
            PlacementDecision decision = policy.place(attempt.request, views, attempt.strategy, attempt.firstDispatch, nominated);
            List<String> added = decision.clusters().stream().filter(c -> !attempt.clusters.contains(c)).toList();
            if (!added.isEmpty()) creates.send(key, attempt, attempt.remote, added);
        });
    }
}
