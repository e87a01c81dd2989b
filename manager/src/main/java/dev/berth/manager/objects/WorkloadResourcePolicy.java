package dev.berth.manager.objects;

import dev.berth.manager.model.Quantity;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Kueue's Configuration {@code resources}: which of a pod's requests count against quota, and in
 * what form. {@code excludeResourcePrefixes} drops every resource whose name starts with a listed
 * prefix; {@code transformations} turn an input resource into outputs (per unit of input, optionally
 * scaled by another requested resource, {@code multiplyBy}), keeping the input (Retain, the default)
 * or dropping it (Replace). Applied, in that order, to each pod set's per-pod requests when a
 * Workload is read for scheduling (Kueue's {@code totalRequestsFromPodSets}); the pod template sent to
 * the worker is untouched. Pure arithmetic over canonical amounts.
 */
public record WorkloadResourcePolicy(List<String> excludeResourcePrefixes, List<ResourceTransformation> transformations) {
    /** Kueue's default: every request counts as it is. */
    public static final WorkloadResourcePolicy NONE = new WorkloadResourcePolicy(List.of(), List.of());

    public enum Strategy { RETAIN, REPLACE }

    /**
     * One transformation: outputs per unit of {@code input} (a quantity each, negative allowed as an
     * allowance); {@code multiplyBy} (null for none) names a requested resource whose quantity scales
     * the outputs.
     */
    public record ResourceTransformation(String input, Strategy strategy, String multiplyBy, Map<String, BigDecimal> outputs) {
        public ResourceTransformation {
            if (input == null || input.isBlank()) throw new IllegalArgumentException("resources.transformations[].input is required");
            strategy = strategy == null ? Strategy.RETAIN : strategy;
            multiplyBy = multiplyBy == null || multiplyBy.isBlank() ? null : multiplyBy;
            outputs = Map.copyOf(outputs == null ? Map.of() : outputs);
        }

        /** Outputs given as quantity strings ({@code "5Gi"}), as a Configuration file writes them. */
        public static ResourceTransformation of(String input, Strategy strategy, Map<String, String> outputs) {
            return of(input, strategy, null, outputs);
        }

        /** As {@link #of(String, Strategy, Map)}, the outputs scaled by the requested {@code multiplyBy}. */
        public static ResourceTransformation of(String input, Strategy strategy, String multiplyBy, Map<String, String> outputs) {
            Map<String, BigDecimal> parsed = new LinkedHashMap<>();
            outputs.forEach((name, quantity) -> parsed.put(name, Quantity.parse(quantity)));
            return new ResourceTransformation(input, strategy, multiplyBy, parsed);
        }
    }

    public WorkloadResourcePolicy {
        excludeResourcePrefixes = List.copyOf(excludeResourcePrefixes);
        transformations = List.copyOf(transformations);
        java.util.Set<String> inputs = new java.util.HashSet<>();
        for (ResourceTransformation transformation : transformations) {
            if (!inputs.add(transformation.input())) {
                throw new IllegalArgumentException("resources.transformations: input " + transformation.input() + " is listed twice");
            }
        }
    }

    /** What one pod of a pod set counts against quota: its requests, excluded and transformed. */
    public Map<String, Long> quotaRequests(Map<String, Long> perPod) {
        if (excludeResourcePrefixes.isEmpty() && transformations.isEmpty()) return perPod;
        return transformed(withoutExcluded(perPod));
    }

    private Map<String, Long> withoutExcluded(Map<String, Long> perPod) {
        Map<String, Long> kept = new TreeMap<>();
        perPod.forEach((resource, amount) -> {
            if (excludeResourcePrefixes.stream().noneMatch(resource::startsWith)) kept.put(resource, amount);
        });
        return kept;
    }

    /**
     * Kueue's applyResourceTransformations: what the transformations generate is summed apart from
     * what is kept, floored at zero, then added; an input without a transformation is kept as it is.
     */
    private Map<String, Long> transformed(Map<String, Long> requests) {
        Map<String, Long> retained = new TreeMap<>();
        Map<String, BigDecimal> generated = new TreeMap<>();
        for (Map.Entry<String, Long> request : requests.entrySet()) {
            String input = request.getKey();
            ResourceTransformation mapping = transformationOf(input);
            if (mapping == null) {
                retained.put(input, request.getValue());
                continue;
            }
            BigDecimal inputQuantity = Quantity.decimal(input, request.getValue());
            if (mapping.multiplyBy() != null && requests.containsKey(mapping.multiplyBy())) {
                inputQuantity = inputQuantity.multiply(Quantity.decimal(mapping.multiplyBy(), requests.get(mapping.multiplyBy())));
            }
            for (Map.Entry<String, BigDecimal> output : mapping.outputs().entrySet()) {
                generated.merge(output.getKey(), inputQuantity.multiply(output.getValue()), BigDecimal::add);
            }
            if (mapping.strategy() == Strategy.RETAIN) retained.put(input, request.getValue());
        }
        Map<String, Long> result = new TreeMap<>(retained);
        generated.forEach((resource, quantity) -> result.merge(resource, Quantity.canonical(resource, quantity), WorkloadResourcePolicy::saturatingAdd));
        result.values().removeIf(amount -> amount == 0L);
        return result;
    }

    private ResourceTransformation transformationOf(String input) {
        for (ResourceTransformation transformation : transformations) {
            if (transformation.input().equals(input)) return transformation;
        }
        return null;
    }

    private static long saturatingAdd(long a, long b) {
        long sum = a + b;
        return ((a ^ sum) & (b ^ sum)) < 0 ? dev.berth.manager.model.Amounts.MAX : sum;
    }
}
