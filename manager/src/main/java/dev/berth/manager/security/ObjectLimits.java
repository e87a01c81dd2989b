package dev.berth.manager.security;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.api.StoredSizeLimit;
import dev.berth.manager.model.InvalidQuantityException;
import dev.berth.manager.model.Quantity;
import dev.berth.manager.objects.FieldCause;
import dev.berth.manager.objects.InvalidObjectException;
import dev.berth.manager.objects.LabelSyntax;
import dev.berth.manager.objects.ObjectNames;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Bounds on an incoming object after it was parsed, before any hook sees it: its encoded size (413),
 * the number of pod sets (Kueue's maximum of 8), the syntax of its name and labels, and the sign and
 * magnitude of every quantity in requests, limits and quotas (422 naming the field).
 */
public final class ObjectLimits {
    public static final int MAX_OBJECT_BYTES = StoredSizeLimit.MAX_OBJECT_BYTES;
    public static final int MAX_POD_SETS = 8;
    /** Larger than any real cluster's resources; keeps canonical milli-units within a long. */
    public static final BigDecimal MAX_QUANTITY = new BigDecimal("9e15");
    private static final Set<String> QUANTITY_MAPS = Set.of("requests", "limits", "resourceRequests", "overhead");
    private static final Set<String> QUANTITY_FIELDS = Set.of("nominalQuota", "borrowingLimit", "lendingLimit");

    private ObjectLimits() {}

    /**
     * @param encodedBytes the object's size as sent (JSON or YAML bytes are close enough to what is stored)
     * @throws InvalidObjectException 413 or 422
     */
    public static void check(ObjectNode object, String kind, boolean namespace, int encodedBytes) {
        if (encodedBytes > MAX_OBJECT_BYTES) {
            throw new InvalidObjectException(413, "RequestEntityTooLarge", "the object is larger than the limit of "
                    + MAX_OBJECT_BYTES + " bytes (" + encodedBytes + " bytes)", List.of());
        }
        List<FieldCause> causes = new ArrayList<>();
        String name = object.path("metadata").path("name").asText("");
        if (!name.isEmpty()) {
            if (namespace) ObjectNames.validateLabelName("metadata.name", name, causes);
            else ObjectNames.validateName("metadata.name", name, causes);
        }
        labels(object.path("metadata").path("labels"), causes);
        podSets(object.path("spec").path("podSets"), "spec.podSets", causes);
        podSets(object.path("spec").path("replicatedJobs"), "spec.replicatedJobs", causes);
        quantities(object, "", causes);
        if (!causes.isEmpty()) throw InvalidObjectException.invalid(kind, name.length() > 253 ? name.substring(0, 253) : name, causes);
    }

    private static void labels(JsonNode labels, List<FieldCause> causes) {
        if (!labels.isObject()) return;
        Map<String, String> values = new java.util.LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = labels.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> label = it.next();
            if (!label.getValue().isTextual()) {
                causes.add(FieldCause.invalid("metadata.labels[" + label.getKey() + "]", "must be a string"));
            } else {
                values.put(label.getKey(), label.getValue().asText());
            }
        }
        LabelSyntax.validateLabels("metadata.labels", values, causes);
    }

    private static void podSets(JsonNode list, String path, List<FieldCause> causes) {
        if (list.isArray() && list.size() > MAX_POD_SETS) {
            causes.add(new FieldCause(path, "Too many: " + list.size() + ": must have at most " + MAX_POD_SETS + " items", "FieldValueTooMany"));
        }
    }

    private static void quantities(JsonNode node, String path, List<FieldCause> causes) {
        if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) quantities(node.get(i), path + "[" + i + "]", causes);
            return;
        }
        if (!node.isObject()) return;
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            String at = path.isEmpty() ? field.getKey() : path + "." + field.getKey();
            if (QUANTITY_MAPS.contains(field.getKey()) && field.getValue().isObject()) {
                for (Iterator<Map.Entry<String, JsonNode>> q = field.getValue().fields(); q.hasNext(); ) {
                    Map.Entry<String, JsonNode> quantity = q.next();
                    quantity(at + "[" + quantity.getKey() + "]", quantity.getValue(), causes);
                }
            } else if (QUANTITY_FIELDS.contains(field.getKey())) {
                quantity(at, field.getValue(), causes);
            } else {
                quantities(field.getValue(), at, causes);
            }
        }
    }

    private static void quantity(String path, JsonNode value, List<FieldCause> causes) {
        if (!value.isTextual() && !value.isNumber()) {
            causes.add(FieldCause.invalid(path, "must be a quantity such as \"2\", \"500m\" or \"16Gi\""));
            return;
        }
        try {
            BigDecimal amount = Quantity.parse(value.asText());
            if (amount.signum() < 0) causes.add(FieldCause.invalid(path, "must be greater than or equal to 0"));
            else if (amount.compareTo(MAX_QUANTITY) > 0) causes.add(FieldCause.invalid(path, "must be at most " + MAX_QUANTITY.toPlainString()));
        } catch (InvalidQuantityException e) {
            causes.add(FieldCause.invalid(path, "Invalid value: " + e.getMessage()));
        }
    }
}
