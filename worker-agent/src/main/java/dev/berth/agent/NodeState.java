package dev.berth.agent;

import io.fabric8.kubernetes.api.model.Taint;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One schedulable node as the agent accounts for it: labels, taints, allocatable and what is in use,
 * in canonical amounts. A resource missing from allocatable is absent, except {@code pods}, which is
 * then unlimited.
 */
public record NodeState(String name, Map<String, String> labels, List<Taint> taints,
                        Map<String, Long> allocatable, Map<String, Long> used) {
    public NodeState {
        labels = Map.copyOf(labels);
        taints = List.copyOf(taints);
        allocatable = Map.copyOf(allocatable);
        used = Map.copyOf(used);
    }

    public long free(String resource) {
        if (!allocatable.containsKey(resource)) return "pods".equals(resource) ? Long.MAX_VALUE : 0;
        return allocatable.get(resource) - used.getOrDefault(resource, 0L);
    }

    public boolean fits(Map<String, Long> requests) {
        for (var request : requests.entrySet()) {
            if (request.getValue() > 0 && free(request.getKey()) < request.getValue()) return false;
        }
        return true;
    }

    /** This node after one more pod with these requests is bound to it. */
    public NodeState plus(Map<String, Long> requests) {
        Map<String, Long> next = new HashMap<>(used);
        requests.forEach((resource, amount) -> next.merge(resource, amount, Long::sum));
        return new NodeState(name, labels, taints, allocatable, next);
    }
}
