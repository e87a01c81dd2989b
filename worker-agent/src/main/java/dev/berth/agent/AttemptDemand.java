package dev.berth.agent;

import dev.berth.protocol.crd.FlavorDefinition;
import dev.berth.protocol.crd.FlavorDefinition.TolerationSpec;
import dev.berth.protocol.crd.PodSetPlacement;
import dev.berth.protocol.crd.RemoteWorkloadSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Turns an attempt's spec into what admission places: per pod set, count, requests and node requirement. */
public final class AttemptDemand {
    private AttemptDemand() {}

    public static List<PodDemand> of(RemoteWorkloadSpec spec) {
        Map<String, List<TolerationSpec>> podTolerations = new HashMap<>();
        if (spec.getTemplate() != null) {
            for (TemplatePods.Slot slot : TemplatePods.of(spec.getTemplate(), spec.getPodSets())) {
                podTolerations.putIfAbsent(slot.podSet(), tolerationsOf(slot.podTemplate()));
            }
        }
        List<PodDemand> demands = new ArrayList<>();
        for (PodSetPlacement podSet : spec.getPodSets()) {
            Map<String, Long> requests = new HashMap<>();
            podSet.getRequests().forEach((r, q) -> requests.put(r, ResourceAmount.parse(r, q)));
            requests.put("pods", 1L);
            NodeRequirement requirement = NodeRequirement.of(flavorsOf(spec, podSet),
                    podTolerations.getOrDefault(podSet.getName(), List.of()));
            demands.add(new PodDemand(podSet.getName(), podSet.getCount(), requests, requirement, podSet.getTopology()));
        }
        return demands;
    }

    /** The flavor definitions a pod set uses; a name not defined in the spec counts as a flavor with no labels. */
    public static List<FlavorDefinition> flavorsOf(RemoteWorkloadSpec spec, PodSetPlacement podSet) {
        Set<String> names = new LinkedHashSet<>(podSet.getFlavors().values());
        List<FlavorDefinition> flavors = new ArrayList<>();
        for (String name : names) {
            FlavorDefinition found = spec.getFlavors().stream().filter(f -> name.equals(f.getName())).findFirst().orElseGet(() -> {
                FlavorDefinition bare = new FlavorDefinition();
                bare.setName(name);
                return bare;
            });
            flavors.add(found);
        }
        return flavors;
    }

    private static List<TolerationSpec> tolerationsOf(Map<String, Object> podTemplate) {
        List<TolerationSpec> result = new ArrayList<>();
        Map<String, Object> spec = TemplatePods.map(podTemplate, "spec").orElse(Map.of());
        for (Object item : TemplatePods.list(spec, "tolerations")) {
            if (item instanceof Map<?, ?> t) {
                result.add(new TolerationSpec(str(t.get("key")), str(t.get("operator")), str(t.get("value")), str(t.get("effect"))));
            }
        }
        return result;
    }

    private static String str(Object value) {
        return value == null ? null : value.toString();
    }
}
