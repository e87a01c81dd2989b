package dev.berth.manager.server;

import dev.berth.manager.objects.TrainJobWorkloads;

/** The stored TrainingRuntimes and ClusterTrainingRuntimes a TrainJob's derivation reads. */
final class TrainingRuntimes {
    private TrainingRuntimes() {}

    static TrainJobWorkloads.Runtimes in(ManagerState state) {
        return (kind, namespace, name) -> state.find(
                (kind.namespaced() ? Resources.TRAINING_RUNTIMES : Resources.CLUSTER_TRAINING_RUNTIMES).resource(), namespace, name);
    }
}
