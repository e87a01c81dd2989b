package dev.berth.manager.objects;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.protocol.KueueApi;
import dev.berth.protocol.Labels;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Reads the labels of a Namespace, which ClusterQueues' namespaceSelectors match against. */
public final class NamespaceDecoder {
    private NamespaceDecoder() {}

    /** metadata.labels, validated, plus {@code kubernetes.io/metadata.name: <name>} as the API server sets it. */
    public static Map<String, String> labels(ObjectNode object) {
        List<FieldCause> causes = new ArrayList<>();
        FieldReader root = FieldReader.root(object, causes);
        String name = ObjectNames.readLabelName(root);
        FieldReader labelsField = root.field("metadata").object().field("labels");
        Map<String, String> labels = labelsField.stringMap();
        LabelSyntax.validateLabels(labelsField.path(), labels, causes);
        root.throwIfInvalid(KueueApi.NAMESPACE, name);
        labels.put(Labels.NAMESPACE_NAME, name);
        return Map.copyOf(labels);
    }
}
