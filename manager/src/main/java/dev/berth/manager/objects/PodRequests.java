package dev.berth.manager.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.model.Amounts;
import dev.berth.manager.model.InvalidQuantityException;
import dev.berth.manager.model.Quantity;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one pod of a pod spec requests, computed as Kubernetes does (and Kueue after it): the sum of
 * the containers, at least the largest init container (sidecars, init containers with
 * restartPolicy Always, keep running and so add to everything after them), plus the pod overhead.
 * A resource with a limit but no request requests its limit, as the API server defaults it.
 */
public final class PodRequests {
    private static final String SIDECAR_RESTART_POLICY = "Always";

    private PodRequests() {}

    /** A list field of another type is refused, not read as an empty list (nor indexed into). */
    private static void requireList(JsonNode node, String fieldPath, List<FieldCause> into) {
        if (!node.isMissingNode() && !node.isNull() && !node.isArray()) into.add(FieldCause.invalid(fieldPath, "must be a list"));
    }

    /**
     * Effective per-pod requests in canonical units, without the implicit {@code pods} resource and
     * without zero amounts. Unreadable quantities add a cause under {@code fieldPath} to {@code into}.
     */
    public static Map<String, Long> perPod(ObjectNode podSpec, String fieldPath, List<FieldCause> into) {
        Map<String, Long> total = new TreeMap<>();
        JsonNode containers = podSpec.path("containers");
        requireList(containers, fieldPath + ".containers", into);
        for (int i = 0; i < containers.size(); i++) {
            String containerPath = fieldPath + ".containers[" + i + "]";
            addInto(total, containerRequests(containers.path(i), containerPath, into), containerPath + ".resources.requests", into);
        }

        Map<String, Long> runningSidecars = new TreeMap<>();
        Map<String, Long> largestInit = new TreeMap<>();
        JsonNode initContainers = podSpec.path("initContainers");
        requireList(initContainers, fieldPath + ".initContainers", into);
        for (int i = 0; i < initContainers.size(); i++) {
            JsonNode container = initContainers.path(i);
            String containerPath = fieldPath + ".initContainers[" + i + "]";
            String requestsPath = containerPath + ".resources.requests";
            Map<String, Long> requests = containerRequests(container, containerPath, into);
            Map<String, Long> whileRunning;
            if (SIDECAR_RESTART_POLICY.equals(container.path("restartPolicy").asText())) {
                addInto(total, requests, requestsPath, into);
                addInto(runningSidecars, requests, requestsPath, into);
                whileRunning = new TreeMap<>(runningSidecars);
            } else {
                whileRunning = new TreeMap<>(requests);
                addInto(whileRunning, runningSidecars, requestsPath, into);
            }
            maxInto(largestInit, whileRunning);
        }
        maxInto(total, largestInit);
        addInto(total, quantities(podSpec.path("overhead"), fieldPath + ".overhead", into), fieldPath + ".overhead", into);
        total.values().removeIf(amount -> amount == 0L);
        return total;
    }

    /** A container's requests, a limit standing in for each missing request. */
    static Map<String, Long> containerRequests(JsonNode container, String containerPath, List<FieldCause> into) {
        JsonNode resources = container.path("resources");
        Map<String, Long> requests = quantities(resources.path("requests"), containerPath + ".resources.requests", into);
        Map<String, Long> limits = quantities(resources.path("limits"), containerPath + ".resources.limits", into);
        for (Map.Entry<String, Long> limit : limits.entrySet()) requests.putIfAbsent(limit.getKey(), limit.getValue());
        return requests;
    }

    /** A resource list (requests, limits, overhead) in canonical units; numbers and strings are both read. */
    static Map<String, Long> quantities(JsonNode list, String listPath, List<FieldCause> into) {
        Map<String, Long> amounts = new TreeMap<>();
        if (list.isMissingNode() || list.isNull()) return amounts;
        if (!list.isObject()) {
            into.add(FieldCause.invalid(listPath, "must be a map of resource names to quantities"));
            return amounts;
        }
        for (Iterator<Map.Entry<String, JsonNode>> fields = list.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            String path = listPath + "." + field.getKey();
            JsonNode value = field.getValue();
            String text = value.isNumber() ? value.decimalValue().toPlainString() : value.isTextual() ? value.textValue() : null;
            if (text == null) {
                into.add(FieldCause.invalid(path, "Invalid value: " + value + ": must be a quantity"));
                continue;
            }
            try {
                amounts.put(field.getKey(), Quantity.amount(field.getKey(), text));
            } catch (InvalidQuantityException e) {
                into.add(FieldCause.invalid(path, "Invalid value: \"" + text + "\": " + e.getMessage()));
            }
        }
        return amounts;
    }

    /**
     * Adds exactly; a sum a long cannot hold is a cause naming the field that tipped it over, and the
     * sum is kept at the largest amount so that later checks still see it as too large.
     */
    private static void addInto(Map<String, Long> sum, Map<String, Long> addend, String addendPath, List<FieldCause> into) {
        for (Map.Entry<String, Long> entry : addend.entrySet()) {
            long before = sum.getOrDefault(entry.getKey(), 0L);
            try {
                sum.put(entry.getKey(), Math.addExact(before, entry.getValue()));
            } catch (ArithmeticException tooLarge) {
                sum.put(entry.getKey(), Amounts.MAX);
                into.add(FieldCause.invalid(addendPath + "." + entry.getKey(), "Invalid value: \""
                        + Quantity.format(entry.getKey(), entry.getValue()) + "\": the pod's total " + entry.getKey()
                        + " request exceeds the largest quantity Berth can account (" + Quantity.format(entry.getKey(), Amounts.MAX) + ")"));
            }
        }
    }

    private static void maxInto(Map<String, Long> max, Map<String, Long> candidate) {
        for (Map.Entry<String, Long> entry : candidate.entrySet()) max.merge(entry.getKey(), entry.getValue(), Math::max);
    }
}
