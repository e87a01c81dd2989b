package dev.berth.manager.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;

/**
 * A MultiKueueCluster's source of credentials: v1beta1 has {@code spec.kubeConfig} and
 * {@code spec.clusterProfileRef} side by side, v1beta2 puts them under {@code spec.clusterSource}
 * (Kueue's Convert_v1beta1_MultiKueueClusterSpec_To_v1beta2_MultiKueueClusterSpec and back).
 */
final class MultiKueueClusterSource {
    private static final List<String> SOURCES = List.of("kubeConfig", "clusterProfileRef");

    private MultiKueueClusterSource() {}

    static void toV1beta2(ObjectNode spec, List<String> warnings) {
        ObjectNode source = null;
        for (String field : SOURCES) {
            JsonNode value = spec.remove(field);
            if (value == null) continue;
            warnings.add("spec." + field + ": deprecated, use spec.clusterSource." + field);
            // v1beta1's kubeConfig is not optional: Go clients send location "" when the cluster uses a profile
            if (field.equals("kubeConfig") && value.path("location").isTextual() && value.path("location").asText().isEmpty()) continue;
            if (source == null) source = spec.get("clusterSource") instanceof ObjectNode existing ? existing : spec.putObject("clusterSource");
            if (!source.has(field)) source.set(field, value);
        }
    }

    /** Moves the sources out of clusterSource; what is left there (nothing, normally) stays for the stash. */
    static void toV1beta1(ObjectNode spec) {
        if (!(spec.get("clusterSource") instanceof ObjectNode source)) return;
        boolean moved = false;
        for (String field : SOURCES) {
            if (!source.has(field) || spec.has(field)) continue;
            spec.set(field, source.remove(field));
            moved = true;
        }
        if (moved && source.isEmpty()) spec.remove("clusterSource");
    }
}
