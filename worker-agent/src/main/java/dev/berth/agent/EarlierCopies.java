package dev.berth.agent;

import dev.berth.protocol.Labels;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.HashMap;
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

    /** The objects each attempt holds on the cluster, by "Kind namespace/name", read once per pass. */
    static Map<String, String> holders(Map<String, List<Map<String, Object>>> ownersByAttempt, Map<String, List<Pod>> podsByAttempt) {
        Map<String, String> holders = new HashMap<>();
        ownersByAttempt.forEach((attempt, owners) -> owners.forEach(owner ->
                holders.putIfAbsent(key(String.valueOf(owner.get("kind")), namespaceOf(owner), nameOf(owner)), attempt)));
        podsByAttempt.forEach((attempt, pods) -> pods.forEach(pod ->
                holders.putIfAbsent(key("Pod", pod.getMetadata().getNamespace(), pod.getMetadata().getName()), attempt)));
        return holders;
    }

    /** The first earlier object in the way, as "Kind namespace/name of attempt X", or empty when the names are free. */
    static Optional<String> inTheWay(List<RenderedObject> rendered, String attemptId, Map<String, String> holders) {
        for (RenderedObject object : rendered) {
            if (!attemptId.equals(attemptOf(object.body()))) continue;
            String key = key(object.kind(), namespaceOf(object.body()), object.name());
            String holder = holders.get(key);
            if (holder != null && !holder.equals(attemptId)) return Optional.of(key + " of attempt " + holder);
        }
        return Optional.empty();
    }

    /** As above, reading the holders from the listings (tests; a pass indexes them once). */
    static Optional<String> inTheWay(List<RenderedObject> rendered, String attemptId,
                                     Map<String, List<Map<String, Object>>> ownersByAttempt, Map<String, List<Pod>> podsByAttempt) {
        return inTheWay(rendered, attemptId, holders(ownersByAttempt, podsByAttempt));
    }

    private static String key(String kind, String namespace, String name) {
        return kind + " " + namespace + "/" + name;
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
