package dev.berth.manager.model;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** status.admission of a workload: the ClusterQueue and the per-pod-set assignments. */
public record Admission(String clusterQueue, List<PodSetAssignment> podSetAssignments) {
    public Admission {
        podSetAssignments = List.copyOf(podSetAssignments);
    }

    /** The quota this admission uses, per flavor and resource. */
    public Map<FlavorResource, Long> usage() {
        Map<FlavorResource, Long> usage = new HashMap<>();
        for (PodSetAssignment assignment : podSetAssignments) {
            for (Map.Entry<String, Long> used : assignment.resourceUsage().entrySet()) {
                String flavor = assignment.flavors().get(used.getKey());
                if (flavor != null) usage.merge(new FlavorResource(flavor, used.getKey()), used.getValue(), Amounts::add);
            }
        }
        return usage;
    }

    public java.util.Set<String> flavors() {
        java.util.Set<String> flavors = new java.util.TreeSet<>();
        for (PodSetAssignment assignment : podSetAssignments) flavors.addAll(assignment.flavors().values());
        return flavors;
    }
}
