package dev.berth.manager.model;

import java.util.List;
import java.util.Map;

/** One matchExpressions entry of a label selector or a node selector term: In, NotIn, Exists, DoesNotExist. */
public record LabelRequirement(String key, String operator, List<String> values) {
    public LabelRequirement {
        values = values == null ? List.of() : List.copyOf(values);
    }

    public boolean matches(Map<String, String> labels) {
        String actual = labels.get(key);
        return switch (operator) {
            case "In" -> actual != null && values.contains(actual);
            case "NotIn" -> actual == null || !values.contains(actual);
            case "Exists" -> actual != null;
            case "DoesNotExist" -> actual == null;
            default -> false;
        };
    }
}
