package dev.berth.manager.controller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.objects.TrainJobWorkloads;
import dev.berth.protocol.TrainerApi;

/**
 * The stored TrainingRuntimes and ClusterTrainingRuntimes: what a TrainJob's derivation reads, and what goes to
 * the worker with a dispatched TrainJob. Kueue's MultiKueue copies the TrainJob only and expects every worker
 * to have the runtime; Berth puts the runtime (kind, name, namespace, labels, spec) on the worker's copy under
 * {@link TrainerApi#RUNTIME_ANNOTATION} and the agent creates it where it is missing, so a worker needs no setup.
 */
final class TrainingRuntimes {
    private TrainingRuntimes() {}

    static TrainJobWorkloads.Runtimes in(ManagerState state) {
        return (kind, namespace, name) -> state.find(resource(kind), namespace, name);
    }

    /** Puts the runtime a TrainJob template names on it (changed in place); other kinds are left alone. */
    static void attach(ManagerState state, ObjectNode template) {
        if (!TrainerApi.TRAIN_JOB.equals(template.path("kind").asText())) return;
        JsonNode ref = template.path("spec").path("runtimeRef");
        TrainerApi.Kind kind = TrainerApi.runtimeKind(ref.path("kind").asText("")).orElse(null);
        if (kind == null) return;
        String namespace = kind.namespaced() ? template.path("metadata").path("namespace").asText("") : "";
        state.find(resource(kind), namespace, ref.path("name").asText("")).ifPresent(runtime -> {
            ObjectNode copy = template.objectNode();
            copy.put("apiVersion", TrainerApi.API_VERSION);
            copy.put("kind", kind.kind());
            ObjectNode metadata = copy.putObject("metadata");
            metadata.put("name", runtime.path("metadata").path("name").asText());
            if (kind.namespaced()) metadata.put("namespace", namespace);
            if (runtime.path("metadata").has("labels")) metadata.set("labels", runtime.path("metadata").get("labels"));
            copy.set("spec", runtime.path("spec"));
            ((ObjectNode) template.with("metadata")).with("annotations").put(TrainerApi.RUNTIME_ANNOTATION, copy.toString());
        });
    }

    private static String resource(TrainerApi.Kind kind) {
        return (kind.namespaced() ? Resources.TRAINING_RUNTIMES : Resources.CLUSTER_TRAINING_RUNTIMES).resource();
    }
}
