package dev.berth.manager.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.protocol.ServingKind;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The {@code scale} subresource of the serving kinds (Deployment, StatefulSet, LeaderWorkerSet), as
 * kube-apiserver serves it: an {@code autoscaling/v1} Scale whose {@code spec.replicas} is the object's and whose
 * {@code status} holds the replicas running and the pod selector. Writing it (PUT, or a merge/JSON patch as
 * {@code kubectl scale} sends) replaces the object with the new {@code spec.replicas}, through the same hooks as
 * any replace, so a rescale is admitted, refused or re-queued as the kind's rules say.
 */
final class ScaleSubresource {
    static final String GROUP = "autoscaling";
    static final String VERSION = "v1";
    static final String KIND = "Scale";
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private ScaleSubresource() {}

    static boolean scalable(ResourceType type) {
        return ServingKind.of(type.kind()).filter(kind -> kind.group().equals(type.group())).isPresent();
    }

    /** The Scale of an object (as a GET of the object returns it). */
    static ObjectNode of(ObjectNode object) {
        ObjectNode scale = JSON.objectNode().put("kind", KIND).put("apiVersion", GROUP + "/" + VERSION);
        ObjectNode metadata = scale.putObject("metadata");
        JsonNode source = object.path("metadata");
        for (String field : List.of("name", "namespace", "uid", "resourceVersion", "creationTimestamp")) {
            if (source.has(field)) metadata.set(field, source.get(field));
        }
        JsonNode replicas = object.path("spec").path("replicas");
        scale.putObject("spec").put("replicas", replicas.canConvertToInt() ? replicas.asInt() : 1);
        ObjectNode status = scale.putObject("status").put("replicas", object.path("status").path("replicas").asInt(0));
        String selector = selector(object);
        if (!selector.isEmpty()) status.put("selector", selector);
        return scale;
    }

    /** The object with the replicas of a written Scale, refused when they are not a non-negative integer. */
    static ObjectNode scaled(ObjectNode object, JsonNode scale) {
        JsonNode replicas = scale.path("spec").path("replicas");
        if (!replicas.canConvertToInt() || replicas.asInt() < 0) {
            throw ApiException.badRequest("spec.replicas: Invalid value: " + replicas + ": must be a non-negative integer");
        }
        ObjectNode copy = object.deepCopy();
        copy.with("spec").put("replicas", replicas.asInt());
        JsonNode resourceVersion = scale.path("metadata").path("resourceVersion");
        if (resourceVersion.isTextual() && !resourceVersion.asText().isEmpty()) copy.with("metadata").put("resourceVersion", resourceVersion.asText());
        else copy.with("metadata").remove("resourceVersion");
        return copy;
    }

    /** The pod selector as a string (matchLabels only, as kubectl shows it); a LeaderWorkerSet's is its name label. */
    private static String selector(ObjectNode object) {
        if (ServingKind.LEADER_WORKER_SET.kind().equals(object.path("kind").asText())) {
            return ServingKind.LWS_NAME_LABEL + "=" + object.path("metadata").path("name").asText();
        }
        List<String> terms = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = object.path("spec").path("selector").path("matchLabels").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> label = it.next();
            terms.add(label.getKey() + "=" + label.getValue().asText());
        }
        return String.join(",", terms);
    }
}
