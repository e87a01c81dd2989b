package dev.berth.manager.objects;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.protocol.Annotations;
import dev.berth.protocol.KueueApi;
import dev.berth.protocol.Labels;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The pods of a Kueue pod group, checked to agree with each other and sorted into shapes: pods that
 * look alike to the scheduler (same effective requests, ports, node selection, tolerations, overhead,
 * priority and non-Kueue labels, as in Kueue's role hash) share a pod set, named by the first 8 hex
 * characters of the SHA-256 of that shape. Container images do not split a pod set, as in Kueue.
 */
record PodGroup(List<Shape> shapes) {
    static final String TOTAL_COUNT_PATH = "metadata.annotations[" + Annotations.POD_GROUP_TOTAL_COUNT + "]";
    static final String GROUP_NAME_PATH = "metadata.labels[" + Labels.POD_GROUP_NAME + "]";
    static final String QUEUE_NAME_PATH = "metadata.labels[" + Labels.QUEUE_NAME + "]";
    private static final String KUEUE_LABEL_PREFIX = "kueue.x-k8s.io/";
    private static final ObjectMapper CANONICAL = new ObjectMapper().enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);

    /** One pod set of the group: its name, how many pods have the shape, and one of them. */
    record Shape(String name, int count, ObjectNode example) {
    }

    static PodGroup of(String groupName, List<ObjectNode> pods) {
        if (pods.isEmpty()) {
            throw InvalidObjectException.invalid(KueueApi.POD, groupName,
                    List.of(FieldCause.required(GROUP_NAME_PATH)));
        }
        String queueName = labels(pods.get(0)).path(Labels.QUEUE_NAME).asText("");
        String totalCount = annotations(pods.get(0)).path(Annotations.POD_GROUP_TOTAL_COUNT).asText("");
        Map<String, Shape> byName = new TreeMap<>();
        for (ObjectNode pod : pods) {
            List<FieldCause> causes = new ArrayList<>();
            checkMembership(pod, groupName, queueName, totalCount, causes);
            WorkloadFactory.checkPodSpec(pod.path("spec"), "spec", causes);
            if (!causes.isEmpty()) throw InvalidObjectException.invalid(KueueApi.POD, podName(pod), causes);
            String name = shapeName(pod);
            Shape known = byName.get(name);
            byName.put(name, known == null ? new Shape(name, 1, pod) : new Shape(name, known.count() + 1, known.example()));
        }
        int expected = parseTotalCount(totalCount);
        if (expected != pods.size()) {
            throw InvalidObjectException.invalid(KueueApi.POD, podName(pods.get(pods.size() - 1)), List.of(FieldCause.invalid(TOTAL_COUNT_PATH,
                    "Invalid value: \"" + totalCount + "\": the group \"" + groupName + "\" has " + pods.size() + " pods")));
        }
        if (byName.size() > WorkloadFactory.MAX_POD_SETS) {
            throw InvalidObjectException.invalid(KueueApi.POD, podName(pods.get(pods.size() - 1)), List.of(FieldCause.invalid(GROUP_NAME_PATH,
                    "Invalid value: \"" + groupName + "\": the group has " + byName.size() + " pod shapes, at most "
                            + WorkloadFactory.MAX_POD_SETS + " are supported")));
        }
        return new PodGroup(List.copyOf(byName.values()));
    }

    private static void checkMembership(ObjectNode pod, String groupName, String queueName, String totalCount, List<FieldCause> causes) {
        String podGroup = labels(pod).path(Labels.POD_GROUP_NAME).asText("");
        if (!groupName.equals(podGroup)) {
            causes.add(FieldCause.invalid(GROUP_NAME_PATH, "Invalid value: \"" + podGroup + "\": must be \"" + groupName + "\""));
        }
        String podQueue = labels(pod).path(Labels.QUEUE_NAME).asText("");
        if (!queueName.equals(podQueue)) {
            causes.add(FieldCause.invalid(QUEUE_NAME_PATH, "Invalid value: \"" + podQueue
                    + "\": every pod of the group must use queue \"" + queueName + "\""));
        }
        String podTotal = annotations(pod).path(Annotations.POD_GROUP_TOTAL_COUNT).asText("");
        if (podTotal.isEmpty()) {
            causes.add(FieldCause.required(TOTAL_COUNT_PATH));
        } else if (parseTotalCount(podTotal) < 1) {
            causes.add(FieldCause.invalid(TOTAL_COUNT_PATH, "Invalid value: \"" + podTotal + "\": must be a positive integer"));
        } else if (!podTotal.equals(totalCount)) {
            causes.add(FieldCause.invalid(TOTAL_COUNT_PATH, "Invalid value: \"" + podTotal
                    + "\": every pod of the group must declare " + totalCount));
        }
    }

    private static int parseTotalCount(String text) {
        try {
            return Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** The first 8 hex characters of the SHA-256 of the pod's shape. */
    static String shapeName(JsonNode pod) {
        JsonNode spec = pod.path("spec");
        ObjectNode shape = JsonNodeFactory.instance.objectNode();
        ObjectNode labels = shape.putObject("labels");
        for (Iterator<Map.Entry<String, JsonNode>> it = labels(pod).fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> label = it.next();
            if (!label.getKey().startsWith(KUEUE_LABEL_PREFIX)) labels.set(label.getKey(), label.getValue());
        }
        shape.set("initContainers", containersShape(spec.path("initContainers")));
        shape.set("containers", containersShape(spec.path("containers")));
        for (String field : List.of("nodeSelector", "affinity", "tolerations", "runtimeClassName", "priority",
                "priorityClassName", "topologySpreadConstraints", "resourceClaims")) {
            shape.set(field, spec.path(field).isMissingNode() ? null : spec.path(field));
        }
        shape.set("overhead", canonical(PodRequests.quantities(spec.path("overhead"), "spec.overhead", new ArrayList<>())));
        try {
            String json = CANONICAL.writeValueAsString(CANONICAL.treeToValue(shape, Object.class));
            return WorkloadNames.hex("SHA-256", json).substring(0, 8);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree always serializes", e);
        }
    }

    private static JsonNode containersShape(JsonNode containers) {
        var shapes = JsonNodeFactory.instance.arrayNode();
        for (JsonNode container : containers) {
            ObjectNode shape = shapes.addObject();
            shape.set("requests", canonical(PodRequests.containerRequests(container, "", new ArrayList<>())));
            shape.set("restartPolicy", container.path("restartPolicy").isMissingNode() ? null : container.path("restartPolicy"));
            shape.set("ports", container.path("ports").isMissingNode() ? null : container.path("ports"));
        }
        return shapes;
    }

    private static ObjectNode canonical(Map<String, Long> amounts) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        amounts.forEach(node::put);
        return node;
    }

    private static JsonNode labels(JsonNode pod) {
        return pod.path("metadata").path("labels");
    }

    private static JsonNode annotations(JsonNode pod) {
        return pod.path("metadata").path("annotations");
    }

    private static String podName(JsonNode pod) {
        return pod.path("metadata").path("name").asText("");
    }
}
