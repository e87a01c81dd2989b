package dev.berth.manager.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.protocol.AppWrapperApi;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The pod sets an AppWrapper component declares, and those the AppWrapper webhook infers for the kinds it
 * knows (pkg/utils InferPodSets): a batch/v1 Job (its template, min(parallelism, completions) pods), a JobSet
 * (each replicated Job), a PyTorchJob (Master, then Worker), a RayCluster or RayJob (head, then each worker
 * group), a Pod, a Deployment or StatefulSet (replicas). A component of another kind counts only the pod
 * sets it declares. A path starts at {@code template} and walks {@code .field} and {@code [index]} steps.
 */
public final class AppWrapperPodSets {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private AppWrapperPodSets() {}

    /** One declared or inferred pod set of a component. */
    public record Declared(String path, int replicas) {
        ObjectNode toJson() {
            ObjectNode node = JSON.objectNode();
            node.put("replicas", replicas);
            node.put("path", path);
            return node;
        }
    }

    /** The node at the path inside the component, or empty with a reason in {@code why}. */
    static Optional<JsonNode> at(JsonNode component, String path, StringBuilder why) {
        List<Object> steps;
        try {
            steps = AppWrapperApi.steps(path);
        } catch (IllegalArgumentException e) {
            why.append(e.getMessage());
            return Optional.empty();
        }
        JsonNode cursor = component.path("template");
        StringBuilder walked = new StringBuilder("template");
        for (Object step : steps) {
            if (step instanceof Integer index) {
                if (!cursor.isArray() || index < 0 || index >= cursor.size()) {
                    why.append("at path position '").append(walked).append("' no item ").append(index);
                    return Optional.empty();
                }
                cursor = cursor.get(index);
                walked.append('[').append(index).append(']');
            } else {
                walked.append('.').append(step);
                if (!cursor.isObject() || !cursor.has((String) step)) {
                    why.append("at path position '").append(walked).append("' missing field '").append(step).append("'");
                    return Optional.empty();
                }
                cursor = cursor.get((String) step);
            }
        }
        return Optional.of(cursor);
    }

    /** The pod sets the AppWrapper webhook infers for a known kind; empty for other kinds. */
    public static List<Declared> inferred(JsonNode component) {
        JsonNode template = component.path("template");
        String apiVersion = template.path("apiVersion").asText("");
        String kind = template.path("kind").asText("");
        JsonNode spec = template.path("spec");
        List<Declared> podSets = new ArrayList<>();
        switch (apiVersion + "/" + kind) {
            case "batch/v1/Job" -> podSets.add(new Declared("template.spec.template", jobPods(spec)));
            case "jobset.x-k8s.io/v1alpha2/JobSet" -> {
                for (int i = 0; i < spec.path("replicatedJobs").size(); i++) {
                    JsonNode replicated = spec.path("replicatedJobs").path(i);
                    if (!replicated.has("template")) continue;
                    int replicas = intOr(replicated.path("replicas"), 1);
                    podSets.add(new Declared("template.spec.replicatedJobs[" + i + "].template.spec.template",
                            replicas * jobPods(replicated.path("template").path("spec"))));
                }
            }
            case "kubeflow.org/v1/PyTorchJob" -> {
                for (String type : List.of("Master", "Worker")) {
                    JsonNode replica = spec.path("pytorchReplicaSpecs").path(type);
                    if (replica.has("template")) {
                        podSets.add(new Declared("template.spec.pytorchReplicaSpecs." + type + ".template", replicas(replica)));
                    }
                }
            }
            case "ray.io/v1/RayCluster" -> ray(spec, "template.spec.", podSets);
            case "ray.io/v1/RayJob" -> ray(spec.path("rayClusterSpec"), "template.spec.rayClusterSpec.", podSets);
            case "v1/Pod" -> podSets.add(new Declared("template", 1));
            case "apps/v1/Deployment", "apps/v1/StatefulSet" -> {
                if (spec.has("template")) podSets.add(new Declared("template.spec.template", replicas(spec)));
            }
            default -> { }
        }
        return podSets;
    }

    /**
     * Writes the inferred pod sets into each component that declares none, as the AppWrapper controller
     * caches them (in its status) before Kueue reads them; Berth keeps them in the spec so that the worker's
     * copy, the agent and the virtual cluster read the same list.
     */
    public static void declareInferred(ObjectNode appWrapper) {
        for (JsonNode component : appWrapper.path("spec").path("components")) {
            if (!(component instanceof ObjectNode writable)) continue;
            if (component.path("podSets").isArray() && !component.path("podSets").isEmpty()) continue;
            List<Declared> inferred = inferred(component);
            if (inferred.isEmpty()) continue;
            ArrayNode podSets = writable.putArray("podSets");
            inferred.forEach(p -> podSets.add(p.toJson()));
        }
    }

    /** The pod templates of an AppWrapper's declared pod sets, by pod set name, in order (for merging podSetUpdates). */
    public static java.util.LinkedHashMap<String, ObjectNode> templates(JsonNode appWrapper) {
        java.util.LinkedHashMap<String, ObjectNode> templates = new java.util.LinkedHashMap<>();
        String name = appWrapper.path("metadata").path("name").asText("");
        int index = 0;
        for (JsonNode component : appWrapper.path("spec").path("components")) {
            for (JsonNode podSet : component.path("podSets")) {
                Optional<JsonNode> found = at(component, podSet.path("path").asText(""), new StringBuilder());
                String podSetName = AppWrapperApi.podSetName(name, index++);
                if (found.isPresent() && found.get().isObject()) templates.put(podSetName, (ObjectNode) found.get());
            }
        }
        return templates;
    }

    private static void ray(JsonNode clusterSpec, String prefix, List<Declared> podSets) {
        podSets.add(new Declared(prefix + "headGroupSpec.template", 1));
        for (int i = 0; i < clusterSpec.path("workerGroupSpecs").size(); i++) {
            JsonNode group = clusterSpec.path("workerGroupSpecs").path(i);
            if (group.has("template")) podSets.add(new Declared(prefix + "workerGroupSpecs[" + i + "].template", replicas(group)));
        }
    }

    private static int replicas(JsonNode parent) {
        return intOr(parent.path("replicas"), 1);
    }

    private static int jobPods(JsonNode jobSpec) {
        int parallelism = intOr(jobSpec.path("parallelism"), 1);
        int completions = intOr(jobSpec.path("completions"), Integer.MAX_VALUE);
        return Math.min(parallelism, completions);
    }

    /** A whole number however it was parsed (YAML and JSON give different node types), else the fallback. */
    private static int intOr(JsonNode value, int fallback) {
        return value.isIntegralNumber() && value.canConvertToInt() ? value.intValue() : fallback;
    }
}
