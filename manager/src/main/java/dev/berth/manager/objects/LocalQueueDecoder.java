package dev.berth.manager.objects;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.model.LocalQueueSpec;
import dev.berth.manager.model.StopPolicy;
import dev.berth.protocol.KueueApi;

import java.util.ArrayList;
import java.util.List;

/** Decodes a LocalQueue: its namespace, the ClusterQueue it feeds, its stopPolicy and its fair-sharing weight. */
public final class LocalQueueDecoder {
    private LocalQueueDecoder() {}

    public static LocalQueueSpec decode(ObjectNode object) {
        List<FieldCause> causes = new ArrayList<>();
        FieldReader root = FieldReader.root(object, causes);
        String name = ObjectNames.readName(root);
        FieldReader namespaceField = root.field("metadata").object().field("namespace");
        String namespace = namespaceField.text();
        if (namespace != null || namespaceField.isAbsent()) {
            ObjectNames.validateLabelName(namespaceField.path(), namespace, causes);
        }
        FieldReader spec = root.field("spec").object();
        FieldReader clusterQueueField = spec.field("clusterQueue");
        String clusterQueue = clusterQueueField.text();
        if (clusterQueue != null || clusterQueueField.isAbsent()) {
            ObjectNames.validateName(clusterQueueField.path(), clusterQueue, causes);
        }
        StopPolicy stopPolicy = spec.field("stopPolicy").oneOf(StopPolicy.values(), StopPolicy::wireName, StopPolicy.NONE);
        double weight = QueuePoliciesDecoder.fairSharingWeight(spec);

        root.throwIfInvalid(KueueApi.LOCAL_QUEUE, name);
        return new LocalQueueSpec(namespace, name, clusterQueue, stopPolicy, weight);
    }
}
