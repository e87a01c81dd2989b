package dev.berth.manager.model;

import java.util.List;
import java.util.Map;

/** A metav1 LabelSelector. The empty selector matches everything. */
public record LabelSelector(Map<String, String> matchLabels, List<LabelRequirement> matchExpressions) {
    public static final LabelSelector EVERYTHING = new LabelSelector(Map.of(), List.of());

    public LabelSelector {
        matchLabels = Map.copyOf(matchLabels);
        matchExpressions = List.copyOf(matchExpressions);
    }

    public boolean matches(Map<String, String> labels) {
        for (Map.Entry<String, String> wanted : matchLabels.entrySet()) {
            if (!wanted.getValue().equals(labels.get(wanted.getKey()))) return false;
        }
        for (LabelRequirement requirement : matchExpressions) {
            if (!requirement.matches(labels)) return false;
        }
        return true;
    }
}
