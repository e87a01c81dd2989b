package dev.berth.agent;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The node constraints a topology-placed pod set's pods carry, written into its pod template: a
 * nodeSelector on the level labels all assigned nodes share (the domain's labels, as Kueue injects
 * them), and a required node affinity {@code <lowest level> In [assigned values]} (the hostnames when the
 * Topology goes down to the node), added to every existing nodeSelectorTerm so the template's own
 * affinity still holds. Kueue instead gates each pod ({@code kueue.x-k8s.io/topology}) and ungates it
 * with a per-pod hostname; one template serves all the pods of a Job here, so the pods are held to the
 * set of assigned nodes and the worker's scheduler picks among them.
 */
public final class TopologyPinning {
    private TopologyPinning() {}

    /**
     * A plain pod (a Pod, or one pod of a pod group) is pinned to exactly its assigned node, as Kueue's
     * ungater does per pod, when the Topology goes down to the hostname; otherwise as {@link #pin}.
     */
    public static void pinPod(Map<String, Object> pod, TopologyPlacement.Placed placed, int index) {
        if (placed == null) return;
        if (!TopologyPlacement.HOSTNAME.equals(placed.leafLevel()) || index >= placed.podLeafValues().size()) {
            pin(pod, placed);
            return;
        }
        Map<String, Object> nodeSelector = TemplatePods.mapOrCreate(TemplatePods.mapOrCreate(pod, "spec"), "nodeSelector");
        nodeSelector.putAll(placed.domainLabels());
        nodeSelector.put(TopologyPlacement.HOSTNAME, placed.podLeafValues().get(index));
    }

    public static void pin(Map<String, Object> podTemplate, TopologyPlacement.Placed placed) {
        if (placed == null) return;
        Map<String, Object> podSpec = TemplatePods.mapOrCreate(podTemplate, "spec");
        if (!placed.domainLabels().isEmpty()) TemplatePods.mapOrCreate(podSpec, "nodeSelector").putAll(placed.domainLabels());
        if (placed.domainLabels().containsKey(placed.leafLevel()) || placed.leafValues().isEmpty()) return;
        Map<String, Object> expression = new LinkedHashMap<>();
        expression.put("key", placed.leafLevel());
        expression.put("operator", "In");
        expression.put("values", new ArrayList<>(placed.leafValues()));
        Map<String, Object> required = TemplatePods.mapOrCreate(TemplatePods.mapOrCreate(
                TemplatePods.mapOrCreate(podSpec, "affinity"), "nodeAffinity"), "requiredDuringSchedulingIgnoredDuringExecution");
        List<Object> terms = new ArrayList<>(TemplatePods.list(required, "nodeSelectorTerms"));
        if (terms.isEmpty()) terms.add(new LinkedHashMap<String, Object>());
        for (Object term : terms) {
            if (!(term instanceof Map<?, ?> m)) continue;
            Map<String, Object> selectorTerm = TemplatePods.cast(m);
            List<Object> expressions = new ArrayList<>(TemplatePods.list(selectorTerm, "matchExpressions"));
            expressions.add(expression);
            selectorTerm.put("matchExpressions", expressions);
        }
        required.put("nodeSelectorTerms", terms);
    }
}
