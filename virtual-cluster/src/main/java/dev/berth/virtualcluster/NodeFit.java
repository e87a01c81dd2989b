package dev.berth.virtualcluster;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.Toleration;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Whether a pod fits a node, with Kubernetes' own wording for why not: node selector and required
 * node affinity, NoSchedule/NoExecute taints, then free resources.
 */
final class NodeFit {
    static final String SELECTOR_MISMATCH = "node(s) didn't match Pod's node affinity/selector";

    private NodeFit() {}

    /** The reasons this node does not fit the pod; empty when it fits. */
    static List<String> reasons(Pod pod, Map<String, BigDecimal> requests, Node node, Map<String, BigDecimal> free) {
        Map<String, String> labels = node.getMetadata().getLabels() == null ? Map.of() : node.getMetadata().getLabels();
        if (!matchesSelector(pod, labels) || !matchesRequiredAffinity(pod, labels)) {
            return List.of(SELECTOR_MISMATCH);
        }
        Taint untolerated = firstUntoleratedTaint(pod, node);
        if (untolerated != null) {
            return List.of("node(s) had untolerated taint {" + untolerated.getKey() + ": "
                + Objects.toString(untolerated.getValue(), "") + "}");
        }
        List<String> insufficient = new ArrayList<>();
        new TreeMap<>(requests).forEach((resource, amount) -> {
            if (amount.signum() > 0 && free.getOrDefault(resource, BigDecimal.ZERO).compareTo(amount) < 0) {
                insufficient.add(resource.equals("pods") ? "Too many pods" : "Insufficient " + resource);
            }
        });
        return insufficient;
    }

    private static boolean matchesSelector(Pod pod, Map<String, String> labels) {
        Map<String, String> selector = pod.getSpec().getNodeSelector();
        return selector == null || selector.entrySet().stream()
            .allMatch(e -> Objects.equals(labels.get(e.getKey()), e.getValue()));
    }

    private static boolean matchesRequiredAffinity(Pod pod, Map<String, String> labels) {
        var affinity = pod.getSpec().getAffinity();
        if (affinity == null || affinity.getNodeAffinity() == null
            || affinity.getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution() == null) {
            return true;
        }
        List<NodeSelectorTerm> terms =
            affinity.getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution().getNodeSelectorTerms();
        if (terms == null || terms.isEmpty()) {
            return true;
        }
        return terms.stream().anyMatch(term -> term.getMatchExpressions() == null
            || term.getMatchExpressions().stream().allMatch(r -> matches(r, labels)));
    }

    private static boolean matches(NodeSelectorRequirement requirement, Map<String, String> labels) {
        String value = labels.get(requirement.getKey());
        List<String> values = requirement.getValues() == null ? List.of() : requirement.getValues();
        switch (requirement.getOperator()) {
            case "In": return value != null && values.contains(value);
            case "NotIn": return value == null || !values.contains(value);
            case "Exists": return value != null;
            case "DoesNotExist": return value == null;
            case "Gt": return value != null && !values.isEmpty() && compare(value, values.get(0)) > 0;
            case "Lt": return value != null && !values.isEmpty() && compare(value, values.get(0)) < 0;
            default: return false;
        }
    }

    private static int compare(String a, String b) {
        try {
            return Long.compare(Long.parseLong(a), Long.parseLong(b));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static Taint firstUntoleratedTaint(Pod pod, Node node) {
        List<Taint> taints = node.getSpec() == null ? null : node.getSpec().getTaints();
        if (taints == null) {
            return null;
        }
        List<Toleration> tolerations = pod.getSpec().getTolerations() == null ? List.of() : pod.getSpec().getTolerations();
        for (Taint taint : taints) {
            boolean hard = "NoSchedule".equals(taint.getEffect()) || "NoExecute".equals(taint.getEffect());
            if (hard && tolerations.stream().noneMatch(t -> tolerates(t, taint))) {
                return taint;
            }
        }
        return null;
    }

    static boolean tolerates(Toleration toleration, Taint taint) {
        if (toleration.getEffect() != null && !toleration.getEffect().isEmpty()
            && !toleration.getEffect().equals(taint.getEffect())) {
            return false;
        }
        String key = toleration.getKey();
        if (key == null || key.isEmpty()) {
            return "Exists".equals(toleration.getOperator());
        }
        if (!key.equals(taint.getKey())) {
            return false;
        }
        if ("Exists".equals(toleration.getOperator())) {
            return true;
        }
        return Objects.equals(Objects.toString(toleration.getValue(), ""), Objects.toString(taint.getValue(), ""));
    }
}
