package dev.berth.manager.controller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.objects.FieldCause;
import dev.berth.manager.objects.InvalidObjectException;
import dev.berth.protocol.Annotations;
import dev.berth.protocol.KueueApi;
import java.util.ArrayList;
import java.util.List;

/** Validates the operator annotations of a MultiKueueCluster: berth.dev/cordon and berth.dev/drain take "true" or "false". */
final class ClusterMarks {
    private static final List<String> VALUES = List.of("true", "false");

    private ClusterMarks() {}

    static void validate(ObjectNode cluster) {
        JsonNode annotations = cluster.path("metadata").path("annotations");
        List<FieldCause> causes = new ArrayList<>();
        for (String key : List.of(Annotations.CORDON, Annotations.DRAIN)) {
            JsonNode value = annotations.path(key);
            if (value.isMissingNode()) continue;
            if (!value.isTextual() || !VALUES.contains(value.asText().toLowerCase())) {
                causes.add(FieldCause.notSupported("metadata.annotations[" + key + "]", value.asText(), VALUES));
            }
        }
        if (!causes.isEmpty()) {
            throw InvalidObjectException.invalid(KueueApi.MULTIKUEUE_CLUSTER, cluster.path("metadata").path("name").asText(), causes);
        }
    }
}
