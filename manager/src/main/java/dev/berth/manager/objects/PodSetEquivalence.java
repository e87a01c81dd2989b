package dev.berth.manager.objects;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Whether a job still asks for what its Workload holds, as Kueue's job reconciler asks it (EquivalentToWorkload): the
 * same pod sets by name, count and minCount, with the same pod spec (containers, init containers, node selector,
 * tolerations, affinity). Labels and annotations of the pod templates do not count, so relabelling a waiting job
 * keeps its place in the queue.
 */
public final class PodSetEquivalence {
    private PodSetEquivalence() {}

    public static boolean same(JsonNode workloadA, JsonNode workloadB) {
        JsonNode a = workloadA.path("spec").path("podSets");
        JsonNode b = workloadB.path("spec").path("podSets");
        if (a.size() != b.size()) return false;
        for (int i = 0; i < a.size(); i++) {
            for (String field : new String[] {"name", "count", "minCount"}) {
                if (!SemanticJson.same(a.get(i).path(field), b.get(i).path(field))) return false;
            }
            if (!SemanticJson.same(a.get(i).path("template").path("spec"), b.get(i).path("template").path("spec"))) return false;
        }
        return true;
    }
}
