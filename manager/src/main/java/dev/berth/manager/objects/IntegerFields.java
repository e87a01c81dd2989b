package dev.berth.manager.objects;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/** Reads optional whole-number fields of an object, reporting wrong types and ranges as field causes. */
final class IntegerFields {
    private IntegerFields() {}

    /** The field's value, {@code fallback} when absent or null, and {@code fallback} with a cause when it is not an integer >= min. */
    static Integer optional(JsonNode parent, String field, String path, int min, Integer fallback, List<FieldCause> into) {
        JsonNode value = parent.path(field);
        if (value.isMissingNode() || value.isNull()) return fallback;
        if (!value.isIntegralNumber() || !value.canConvertToInt()) {
            into.add(FieldCause.invalid(path, "Invalid value: " + value + ": must be an integer"));
            return fallback;
        }
        if (value.intValue() < min) {
            into.add(FieldCause.invalid(path, "Invalid value: " + value.intValue() + ": must be greater than or equal to " + min));
            return fallback;
        }
        return value.intValue();
    }
}
