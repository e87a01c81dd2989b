package dev.berth.manager.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.dispatch.TopologyAssignment;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The JSON of the agents' topology assignments in two places: Berth's own list in
 * {@code status.dispatch.topologyAssignments} ({podSet, levels, domains: [{values, count}]}, the protocol's
 * shape), and Kueue's {@code status.admission.podSetAssignments[].topologyAssignment} in its v1beta2 form
 * ({levels, slices: [{domainCount, valuesPerLevel, podCounts}]}), shown for the pod sets the current
 * attempt's cluster reported on, so {@code kubectl get workload -o yaml} says where the pods went.
 */
public final class TopologyAssignmentJson {
    static final String FIELD = "topologyAssignment";
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private TopologyAssignmentJson() {}

    /** Berth's list, as status.dispatch carries it. */
    public static ArrayNode encode(List<TopologyAssignment> assignments) {
        ArrayNode array = JSON.arrayNode();
        for (TopologyAssignment assignment : assignments) {
            ObjectNode entry = array.addObject();
            entry.put("podSet", assignment.podSet());
            assignment.levels().forEach(entry.putArray("levels")::add);
            ArrayNode domains = entry.putArray("domains");
            for (TopologyAssignment.Domain domain : assignment.domains()) {
                ObjectNode d = domains.addObject();
                domain.values().forEach(d.putArray("values")::add);
                d.put("count", domain.count());
            }
        }
        return array;
    }

    /** Berth's list read back; an entry without a pod set is skipped. */
    public static List<TopologyAssignment> decode(JsonNode array) {
        List<TopologyAssignment> assignments = new ArrayList<>();
        for (JsonNode entry : array) {
            String podSet = entry.path("podSet").asText("");
            if (podSet.isEmpty()) continue;
            List<TopologyAssignment.Domain> domains = new ArrayList<>();
            for (JsonNode d : entry.path("domains")) domains.add(new TopologyAssignment.Domain(texts(d.path("values")), d.path("count").asInt(0)));
            assignments.add(new TopologyAssignment(podSet, texts(entry.path("levels")), domains));
        }
        return assignments;
    }

    /**
     * Kueue's v1beta2 TopologyAssignment of one pod set: one slice holding every domain; a level whose
     * value is the same in every domain is given once ({@code universal}), else per domain
     * ({@code individual.roots}); pod counts likewise. Kueue's CRD rules hold (one value list per level,
     * as many roots and counts as domains).
     */
    public static ObjectNode kueueV1beta2(TopologyAssignment assignment) {
        ObjectNode json = JSON.objectNode();
        assignment.levels().forEach(json.putArray("levels")::add);
        ArrayNode slices = json.putArray("slices");
        if (assignment.domains().isEmpty()) return json;
        ObjectNode slice = slices.addObject();
        slice.put("domainCount", assignment.domains().size());
        ArrayNode valuesPerLevel = slice.putArray("valuesPerLevel");
        for (int level = 0; level < assignment.levels().size(); level++) {
            int at = level;
            List<String> values = assignment.domains().stream().map(d -> at < d.values().size() ? d.values().get(at) : "").toList();
            ObjectNode entry = valuesPerLevel.addObject();
            if (new HashSet<>(values).size() == 1) entry.put("universal", values.get(0));
            else values.forEach(entry.putObject("individual").putArray("roots")::add);
        }
        ObjectNode podCounts = slice.putObject("podCounts");
        List<Integer> counts = assignment.domains().stream().map(TopologyAssignment.Domain::count).toList();
        if (new HashSet<>(counts).size() == 1) podCounts.put("universal", counts.get(0));
        else counts.forEach(podCounts.putArray("individual")::add);
        return json;
    }

    /**
     * Puts each reported assignment on the admission's pod set of the same name (Kueue's
     * {@code status.admission.podSetAssignments[].topologyAssignment}) and removes it from the others,
     * so the admission shows the current attempt's placement only. A status without admission is left as it is.
     */
    static void project(ObjectNode status, List<TopologyAssignment> reported) {
        JsonNode podSetAssignments = status.path("admission").path("podSetAssignments");
        if (!podSetAssignments.isArray()) return;
        Map<String, TopologyAssignment> byPodSet = reported.stream()
                .collect(Collectors.toMap(TopologyAssignment::podSet, Function.identity(), (first, second) -> first));
        for (JsonNode podSet : podSetAssignments) {
            if (!(podSet instanceof ObjectNode entry)) continue;
            TopologyAssignment assignment = byPodSet.get(entry.path("name").asText());
            if (assignment == null) entry.remove(FIELD);
            else entry.set(FIELD, kueueV1beta2(assignment));
        }
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        for (JsonNode value : array) texts.add(value.asText());
        return texts;
    }
}
