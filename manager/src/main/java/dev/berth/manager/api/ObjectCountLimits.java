package dev.berth.manager.api;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How many objects of each namespaced resource one namespace may hold, in the spirit of a
 * ResourceQuota's {@code count/<resource>.<group>} on every namespace. Keys are qualified resource
 * names ({@code workloads.kueue.x-k8s.io}, {@code jobs.batch}, {@code pods}); every other namespaced
 * resource gets {@code otherwise}. The limit holds for every caller, admins included, as a
 * ResourceQuota does; objects Berth writes itself (the Workload of a Job, Events) are counted but
 * never refused. Cluster-scoped resources are not limited: only admins create them.
 */
public record ObjectCountLimits(Map<String, Integer> perResource, int otherwise) {
    /** Generous for real use, small enough that one namespace cannot fill the manager's memory. */
    public static final ObjectCountLimits DEFAULTS = new ObjectCountLimits(Map.of(
            "workloads.kueue.x-k8s.io", 1000,
            "jobs.batch", 1000,
            "jobsets.jobset.x-k8s.io", 1000,
            "pods", 5000,
            "localqueues.kueue.x-k8s.io", 100), 1000);
    public static final ObjectCountLimits UNLIMITED = new ObjectCountLimits(Map.of(), Integer.MAX_VALUE);

    public ObjectCountLimits {
        perResource = Map.copyOf(perResource);
        if (otherwise < 0 || perResource.values().stream().anyMatch(limit -> limit < 0)) {
            throw new IllegalArgumentException("object count limits must not be negative");
        }
    }

    public int limitFor(ResourceType type) {
        return perResource.getOrDefault(type.qualifiedName(), otherwise);
    }

    /**
     * The flag's value, {@code workloads.kueue.x-k8s.io=500,pods=2000,default=1000}, over the defaults:
     * a resource not named keeps its default limit, {@code default} replaces the limit of the others.
     */
    public static ObjectCountLimits parse(String flag) {
        Map<String, Integer> limits = new LinkedHashMap<>(DEFAULTS.perResource());
        int otherwise = DEFAULTS.otherwise();
        for (String entry : flag.split(",")) {
            if (entry.isBlank()) continue;
            String[] pair = entry.strip().split("=", 2);
            if (pair.length != 2) throw new IllegalArgumentException("--max-objects-per-namespace: expected resource=count, got \"" + entry + "\"");
            int limit;
            try {
                limit = Integer.parseInt(pair[1].strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--max-objects-per-namespace: \"" + pair[1] + "\" is not a count");
            }
            String resource = pair[0].strip().replaceFirst("^count/", "");
            if (resource.equals("default")) otherwise = limit; else limits.put(resource, limit);
        }
        return new ObjectCountLimits(limits, otherwise);
    }
}
