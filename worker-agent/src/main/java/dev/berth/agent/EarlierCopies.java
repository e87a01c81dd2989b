package dev.berth.agent;

import dev.berth.protocol.Labels;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Whether an attempt's objects would take a name that another attempt's objects still hold on the
 * cluster. A workload re-admitted under a new attempt (a serving object rescaled, a Job deleted and
 * created again) renders objects with the same names as the copy before it; while that copy is still
 * there the new one must wait, for a create would meet the old object, and the old object is deleted
 * with its attempt. Objects the attempt does not own (a TrainJob's shared runtime) never wait.
 */
final class EarlierCopies {
    private EarlierCopies() {
    }

    /** The first earlier object in the way, as "Kind namespace/name of attempt X", or empty when the names are free. */
    static Optional<String> inTheWay(List<RenderedObject> rendered, String attemptId,
                                     Map<String, List<Map<String, Object>>> ownersByAttempt, Map<String, List<Pod>> podsByAttempt) {
        for (RenderedObject object : rendered) {
            if (!attemptId.equals(attemptOf(object.body()))) continue;
            String namespace = namespaceOf(object.body());
            for (Map.Entry<String, List<Map<String, Object>>> entry : ownersByAttempt.entrySet()) {
                if (entry.getKey().equals(attemptId)) continue;
                for (Map<String, Object> owner : entry.getValue()) {
                    if (object.kind().equals(owner.get("kind")) && object.name().equals(nameOf(owner)) && namespace.equals(namespaceOf(owner))) {
                        return Optional.of(describe(object, namespace, entry.getKey()));
                    }
                }
            }
            if (!"Pod".equals(object.kind())) continue;
            for (Map.Entry<String, List<Pod>> entry : podsByAttempt.entrySet()) {
                if (entry.getKey().equals(attemptId)) continue;
                for (Pod pod : entry.getValue()) {
                    if (object.name().equals(pod.getMetadata().getName()) && namespace.equals(pod.getMetadata().getNamespace())) {
                        return Optional.of(describe(object, namespace, entry.getKey()));
                    }
                }
            }
        }
        return Optional.empty();
    }

    private static String describe(RenderedObject object, String namespace, String otherAttempt) {
        return object.kind() + " " + namespace + "/" + object.name() + " of attempt " + otherAttempt;
    }

    private static String attemptOf(Map<String, Object> object) {
        Object value = metadata(object).flatMap(m -> TemplatePods.map(m, "labels")).orElse(Map.of()).get(Labels.ATTEMPT_ID);
        return value == null ? null : value.toString();
    }

    private static String nameOf(Map<String, Object> object) {
        return String.valueOf(metadata(object).orElse(Map.of()).get("name"));
    }

    private static String namespaceOf(Map<String, Object> object) {
        return String.valueOf(metadata(object).orElse(Map.of()).get("namespace"));
    }

    private static Optional<Map<String, Object>> metadata(Map<String, Object> object) {
        return TemplatePods.map(object, "metadata");
    }
}
