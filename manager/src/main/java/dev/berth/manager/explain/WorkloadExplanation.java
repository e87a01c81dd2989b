package dev.berth.manager.explain;

import dev.berth.protocol.VisibilityApi;
import java.util.List;

/**
 * The layered diagnosis of one workload, top layer first; {@code answer} is the message of the first
 * layer that blocks or waits (or of the deepest layer reached when none does).
 */
public record WorkloadExplanation(String kind, String apiVersion, Metadata metadata, List<Layer> layers, String answer) {
    public WorkloadExplanation {
        layers = List.copyOf(layers);
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
                new Metadata(name, namespace), layers, answer);
    }

    /** The same explanation with a shorter first line; the layers keep the full numbers. */
    WorkloadExplanation withAnswer(String oneLine) {
        return new WorkloadExplanation(kind, apiVersion, metadata, layers, oneLine);
    }

    public Layer layer(String name) {
        return layers.stream().filter(l -> l.layer().equals(name)).findFirst().orElseThrow();
    }
}
