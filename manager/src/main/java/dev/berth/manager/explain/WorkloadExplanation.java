package dev.berth.manager.explain;

import dev.berth.protocol.VisibilityApi;
import java.util.List;

/**
 * The layered diagnosis of one workload, top layer first; {@code answer} is the message of the first
 * layer that blocks or waits (or of the deepest layer reached when none does). For a workload waiting
 * for quota, {@code suggestions} are the changes that would admit it now (each verified by a re-run of
 * the decision) and {@code estimate} says when the quota it needs frees up at the latest (null: unknown).
 */
public record WorkloadExplanation(String kind, String apiVersion, Metadata metadata, List<Layer> layers, String answer,
                                  List<Suggestion> suggestions, String estimate) {
    public WorkloadExplanation {
        layers = List.copyOf(layers);
        suggestions = List.copyOf(suggestions);
    }

    public record Metadata(String name, String namespace) {
    }

    public static WorkloadExplanation of(String namespace, String name, List<Layer> layers) {
        String answer = null;
        for (Layer layer : layers) {
            if (layer.stops()) {
                answer = layer.message();
                break;
            }
            if (layer.reached()) answer = layer.message();
        }
        return new WorkloadExplanation(VisibilityApi.WORKLOAD_EXPLANATION, VisibilityApi.BERTH_GROUP + "/" + VisibilityApi.V1ALPHA1,
                new Metadata(name, namespace), layers, answer, List.of(), null);
    }

    /** The same explanation with a shorter first line; the layers keep the full numbers. */
    WorkloadExplanation withAnswer(String oneLine) {
        return new WorkloadExplanation(kind, apiVersion, metadata, layers, oneLine, suggestions, estimate);
    }

    /** The same explanation with what would admit it and when. */
    WorkloadExplanation withAdvice(List<Suggestion> changes, String when) {
        return new WorkloadExplanation(kind, apiVersion, metadata, layers, answer, changes, when);
    }

    public Layer layer(String name) {
        return layers.stream().filter(l -> l.layer().equals(name)).findFirst().orElseThrow();
    }
}
