package dev.berth.manager.objects;

import dev.berth.manager.model.LabelRequirement;
import dev.berth.manager.model.LabelSelector;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Decodes a metav1.LabelSelector (matchLabels and matchExpressions) with Kubernetes' validation. */
public final class LabelSelectorDecoder {
    static final List<String> OPERATORS = List.of("In", "NotIn", "Exists", "DoesNotExist");

    private LabelSelectorDecoder() {}

    /** Null when the field is absent or null (selects nothing); {@link LabelSelector#EVERYTHING} for {@code {}}. */
    public static LabelSelector decode(FieldReader field) {
        FieldReader selector = field.object();
        if (selector.isAbsent()) return null;
        if (selector.node().isEmpty()) return LabelSelector.EVERYTHING;

        FieldReader labelsField = selector.field("matchLabels");
        Map<String, String> matchLabels = labelsField.stringMap();
        LabelSyntax.validateLabels(labelsField.path(), matchLabels, field.causes());

        List<LabelRequirement> requirements = new ArrayList<>();
        for (FieldReader item : selector.field("matchExpressions").items()) {
            LabelRequirement requirement = requirement(item.object());
            if (requirement != null) requirements.add(requirement);
        }
        return new LabelSelector(matchLabels, requirements);
    }

    private static LabelRequirement requirement(FieldReader expression) {
        FieldReader keyField = expression.field("key");
        String key = keyField.requiredText();
        if (key != null) LabelSyntax.validateKey(keyField.path(), key, expression.causes());
        FieldReader operatorField = expression.field("operator");
        String operator = operatorField.requiredText() == null ? null : operatorField.oneOf(OPERATORS);
        FieldReader valuesField = expression.field("values");
        List<String> values = valuesField.texts();
        if ("In".equals(operator) || "NotIn".equals(operator)) {
            if (values.isEmpty() && !isWrongType(valuesField)) {
                valuesField.required("must be specified when `operator` is 'In' or 'NotIn'");
            }
        } else if (operator != null && !values.isEmpty()) {
            valuesField.forbidden("may not be specified when `operator` is 'Exists' or 'DoesNotExist'");
        }
        for (int i = 0; i < values.size(); i++) {
            LabelSyntax.validateValue(valuesField.path() + "[" + i + "]", values.get(i), expression.causes());
        }
        if (key == null || operator == null) return null;
        return new LabelRequirement(key, operator, values);
    }

    private static boolean isWrongType(FieldReader field) {
        return !field.isAbsent() && !field.node().isArray();
    }
}
