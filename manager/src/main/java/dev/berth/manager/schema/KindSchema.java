package dev.berth.manager.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The schema of one kind at one version. A custom resource's is its CRD's openAPIV3Schema
 * (structural: an object without properties keeps nothing unless it says
 * {@code x-kubernetes-preserve-unknown-fields}); a built-in kind's is a Kubernetes definition whose
 * free-form objects (RawExtension, FieldsV1) keep anything, as Go decoding does.
 */
public record KindSchema(SchemaCatalog.GroupVersionKind gvk, String definitionName, JsonNode root,
                         boolean custom, Definitions definitions) {

    static KindSchema builtIn(SchemaCatalog.GroupVersionKind gvk, String definitionName, Definitions definitions) {
        return new KindSchema(gvk, definitionName, definitions.get(definitionName).orElseThrow(), false, definitions);
    }

    static KindSchema custom(SchemaCatalog.GroupVersionKind gvk, ObjectNode schema, Definitions definitions) {
        return new KindSchema(gvk, restFriendlyName(gvk), schema, true, definitions);
    }

    /**
     * The OpenAPI definition name kube-apiserver gives a custom kind: the group's domain reversed,
     * then version and kind ({@code io.x-k8s.kueue.v1beta2.ClusterQueue}).
     */
    static String restFriendlyName(SchemaCatalog.GroupVersionKind gvk) {
        String[] labels = gvk.group().split("\\.");
        StringBuilder name = new StringBuilder();
        for (int i = labels.length - 1; i >= 0; i--) name.append(labels[i]).append('.');
        return name + gvk.version() + "." + gvk.kind();
    }
}
