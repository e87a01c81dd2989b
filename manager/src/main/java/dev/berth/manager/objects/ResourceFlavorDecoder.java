package dev.berth.manager.objects;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.model.ResourceFlavor;
import dev.berth.manager.model.Taint;
import dev.berth.manager.model.Toleration;
import dev.berth.protocol.KueueApi;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Decodes a ResourceFlavor: spec.nodeLabels, spec.nodeTaints and spec.tolerations, with Kueue's limits, and spec.topologyName (checked by FlavorTopologyRules). */
public final class ResourceFlavorDecoder {
    /** Kueue allows at most 8 node labels, 8 taints and 8 tolerations per flavor. */
    static final int MAX_ITEMS = 8;
    static final List<String> TAINT_EFFECTS = List.of("NoSchedule", "PreferNoSchedule", "NoExecute");
    static final List<String> TOLERATION_OPERATORS = List.of("Exists", "Equal");

    private ResourceFlavorDecoder() {}

    public static ResourceFlavor decode(ObjectNode object) {
        List<FieldCause> causes = new ArrayList<>();
        FieldReader root = FieldReader.root(object, causes);
        String name = ObjectNames.readName(root);
        FieldReader spec = root.field("spec").object();

        FieldReader labelsField = spec.field("nodeLabels");
        Map<String, String> nodeLabels = labelsField.stringMap();
        LabelSyntax.validateLabels(labelsField.path(), nodeLabels, causes);
        if (nodeLabels.size() > MAX_ITEMS) {
            causes.add(new FieldCause(labelsField.path(), "Too many: " + nodeLabels.size() + ": must have at most "
                    + MAX_ITEMS + " items", "FieldValueTooMany"));
        }
        List<Taint> taints = taints(spec.field("nodeTaints"));
        List<Toleration> tolerations = tolerations(spec.field("tolerations"));

        root.throwIfInvalid(KueueApi.RESOURCE_FLAVOR, name);
        String topologyName = object.path("spec").path("topologyName").isTextual() ? object.path("spec").path("topologyName").asText() : null;
        return new ResourceFlavor(name, nodeLabels, taints, tolerations, topologyName);
    }

    private static List<Taint> taints(FieldReader field) {
        field.checkMaxItems(MAX_ITEMS);
        List<Taint> taints = new ArrayList<>();
        for (FieldReader item : field.items()) {
            FieldReader taint = item.object();
            FieldReader keyField = taint.field("key");
            String key = keyField.requiredText();
            if (key != null) LabelSyntax.validateKey(keyField.path(), key, field.causes());
            FieldReader valueField = taint.field("value");
            String value = valueField.text();
            if (value != null) LabelSyntax.validateValue(valueField.path(), value, field.causes());
            FieldReader effectField = taint.field("effect");
            String effect = effectField.requiredText() == null ? null : effectField.oneOf(TAINT_EFFECTS);
            taints.add(new Taint(key, value, effect));
        }
        return taints;
    }

    private static List<Toleration> tolerations(FieldReader field) {
        field.checkMaxItems(MAX_ITEMS);
        List<Toleration> tolerations = new ArrayList<>();
        for (FieldReader item : field.items()) {
            FieldReader toleration = item.object();
            FieldReader keyField = toleration.field("key");
            String key = keyField.text();
            if (key != null && !key.isEmpty()) LabelSyntax.validateKey(keyField.path(), key, field.causes());
            FieldReader operatorField = toleration.field("operator");
            String operator = operatorField.oneOf(TOLERATION_OPERATORS);
            boolean exists = "Exists".equals(operator);
            boolean operatorUnsupported = operator == null && operatorField.node().isTextual()
                    && !operatorField.node().textValue().isEmpty();
            if ((key == null || key.isEmpty()) && !exists && !operatorUnsupported) {
                operatorField.invalidValue(operator == null ? "" : operator,
                        "operator must be Exists when `key` is empty, which means \"match all values and all keys\"");
            }
            FieldReader valueField = toleration.field("value");
            String value = valueField.text();
            if (exists && value != null && !value.isEmpty()) {
                valueField.invalid("value must be empty when `operator` is 'Exists'");
            } else if (value != null) {
                LabelSyntax.validateValue(valueField.path(), value, field.causes());
            }
            FieldReader effectField = toleration.field("effect");
            String effect = effectField.oneOf(TAINT_EFFECTS);
            tolerations.add(new Toleration(key, operator == null ? "Equal" : operator, value, effect));
        }
        return tolerations;
    }
}
