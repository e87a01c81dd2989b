package dev.berth.manager.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.protocol.ServingKind;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The pod templates inside a serving object by the pod set they belong to ({@link ServingWorkloads}):
 * {@code main} for a Deployment's or StatefulSet's {@code spec.template}; {@code leader} and {@code worker}
 * (or {@code main} without a leader template) for a LeaderWorkerSet. The nodes are the object's own.
 */
public final class ServingTemplates {
    private ServingTemplates() {}

    public static Map<String, ObjectNode> of(JsonNode object) {
        Map<String, ObjectNode> templates = new LinkedHashMap<>();
        JsonNode spec = object.path("spec");
        if (ServingKind.LEADER_WORKER_SET.kind().equals(object.path("kind").asText())) {
            JsonNode lwt = spec.path("leaderWorkerTemplate");
            boolean leader = lwt.path("leaderTemplate").isObject();
            if (leader) templates.put(ServingKind.LEADER_POD_SET, (ObjectNode) lwt.get("leaderTemplate"));
            if (lwt.path("workerTemplate").isObject()) {
                templates.put(leader ? ServingKind.WORKER_POD_SET : ServingKind.MAIN_POD_SET, (ObjectNode) lwt.get("workerTemplate"));
            }
        } else if (spec.path("template").isObject()) {
            templates.put(ServingKind.MAIN_POD_SET, (ObjectNode) spec.get("template"));
        }
        return templates;
    }
}
