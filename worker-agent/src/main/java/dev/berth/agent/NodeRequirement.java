package dev.berth.agent;

import dev.berth.protocol.crd.FlavorDefinition;
import dev.berth.protocol.crd.FlavorDefinition.TolerationSpec;
import io.fabric8.kubernetes.api.model.Taint;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Which nodes a pod may go to: the nodeLabels of its flavor(s) and the tolerations of the flavor(s)
 * plus the pod's own. Only NoSchedule and NoExecute taints keep a pod away.
 */
public record NodeRequirement(String flavor, Map<String, String> nodeLabels, List<TolerationSpec> tolerations) {
    public NodeRequirement {
        nodeLabels = Map.copyOf(new LinkedHashMap<>(nodeLabels));
        tolerations = List.copyOf(tolerations);
    }

    /** The requirement of a flavor alone (for capacity reports). */
    public static NodeRequirement of(FlavorDefinition flavor) {
        return of(List.of(flavor), List.of());
    }

    /** Merges flavors (a pod set may take different resources from different flavors) and the pod's tolerations. */
    public static NodeRequirement of(List<FlavorDefinition> flavors, List<TolerationSpec> podTolerations) {
        Map<String, String> labels = new LinkedHashMap<>();
        List<TolerationSpec> tolerations = new ArrayList<>();
        for (FlavorDefinition flavor : flavors) {
            labels.putAll(flavor.getNodeLabels());
            tolerations.addAll(flavor.getTolerations());
        }
        tolerations.addAll(podTolerations);
        String name = flavors.stream().map(FlavorDefinition::getName).distinct().collect(Collectors.joining("+"));
        return new NodeRequirement(name, labels, tolerations);
    }

    /** {@code key=value,key2=value2}, sorted by key for a stable message. */
    public String describeLabels() {
        return nodeLabels.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(","));
    }

    public boolean labelsMatch(NodeState node) {
        return nodeLabels.entrySet().stream().allMatch(e -> e.getValue().equals(node.labels().get(e.getKey())));
    }

    /** The first NoSchedule/NoExecute taint of the node that no toleration covers. */
    public Optional<Taint> untoleratedTaint(NodeState node) {
        return node.taints().stream()
                .filter(t -> "NoSchedule".equals(t.getEffect()) || "NoExecute".equals(t.getEffect()))
                .filter(t -> tolerations.stream().noneMatch(tol -> tolerates(tol, t)))
                .findFirst();
    }

    public boolean matches(NodeState node) {
        return labelsMatch(node) && untoleratedTaint(node).isEmpty();
    }

    static boolean tolerates(TolerationSpec toleration, Taint taint) {
        if (toleration.getEffect() != null && !toleration.getEffect().isEmpty()
                && !toleration.getEffect().equals(taint.getEffect())) return false;
        boolean exists = "Exists".equals(toleration.getOperator());
        if (toleration.getKey() == null || toleration.getKey().isEmpty()) return exists;
        if (!toleration.getKey().equals(taint.getKey())) return false;
        if (exists) return true;
        String value = toleration.getValue() == null ? "" : toleration.getValue();
        String taintValue = taint.getValue() == null ? "" : taint.getValue();
        return value.equals(taintValue);
    }

    public static String describe(Taint taint) {
        String value = taint.getValue() == null || taint.getValue().isEmpty() ? "" : "=" + taint.getValue();
        return taint.getKey() + value + ":" + taint.getEffect();
    }
}
