package dev.berth.manager.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.berth.manager.model.InvalidQuantityException;
import dev.berth.manager.model.Quantity;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Map.Entry;
import java.util.function.Function;

/**
 * One field of a parsed object together with its path ({@code spec.resourceGroups[0].flavors[1]}).
 * Reading a value checks its JSON type and records a {@link FieldCause} under that path instead of
 * throwing, so a decoder can collect every problem of an object before it rejects it. An absent or
 * null field reads as null; a field of the wrong type is reported once and then reads as absent.
 */
public final class FieldReader {
    private final JsonNode node;
    private final String path;
    private final List<FieldCause> causes;

    private FieldReader(JsonNode node, String path, List<FieldCause> causes) {
        this.node = node == null ? MissingNode.getInstance() : node;
        this.path = path;
        this.causes = causes;
    }

    /** The whole object; causes found while reading it are added to {@code causes}. */
    public static FieldReader root(JsonNode node, List<FieldCause> causes) {
        return new FieldReader(node, "", causes);
    }

    public String path() {
        return path;
    }

    public JsonNode node() {
        return node;
    }

    public List<FieldCause> causes() {
        return causes;
    }

    public boolean isAbsent() {
        return node.isMissingNode() || node.isNull();
    }

    /** A named field of this object (absent when this is not an object). */
    public FieldReader field(String name) {
        JsonNode child = node.isObject() ? node.get(name) : null;
        return new FieldReader(child, path.isEmpty() ? name : path + "." + name, causes);
    }

    /** This field if it is an object or absent; otherwise records a type error and reads as absent. */
    public FieldReader object() {
        if (isAbsent() || node.isObject()) return this;
        wrongType("object");
        return absent();
    }

    /** The items of an array; an absent field is an empty list. */
    public List<FieldReader> items() {
        if (isAbsent()) return List.of();
        if (!node.isArray()) {
            wrongType("array");
            return List.of();
        }
        List<FieldReader> items = new ArrayList<>(node.size());
        for (int i = 0; i < node.size(); i++) items.add(new FieldReader(node.get(i), path + "[" + i + "]", causes));
        return items;
    }

    /** A string, or null when absent or of another type (which is recorded). */
    public String text() {
        if (isAbsent()) return null;
        if (!node.isTextual()) {
            wrongType("string");
            return null;
        }
        return node.textValue();
    }

    /** A string that must be present and non-empty. */
    public String requiredText() {
        if (isAbsent() || (node.isTextual() && node.textValue().isEmpty())) {
            required();
            return null;
        }
        return text();
    }

    /** An array of strings; items of another type are recorded and skipped. */
    public List<String> texts() {
        List<String> texts = new ArrayList<>();
        for (FieldReader item : items()) {
            String text = item.text();
            if (text != null) texts.add(text);
        }
        return texts;
    }

    /** A map of string to string, in document order; entries of another type are recorded and skipped. */
    public Map<String, String> stringMap() {
        Map<String, String> map = new LinkedHashMap<>();
        FieldReader object = object();
        if (object.isAbsent()) return map;
        for (Entry<String, JsonNode> entry : object.node.properties()) {
            String value = new FieldReader(entry.getValue(), path + "[" + entry.getKey() + "]", causes).text();
            if (value != null) map.put(entry.getKey(), value);
        }
        return map;
    }

    /** A 32-bit integer, or null when absent or invalid (which is recorded). */
    public Integer int32() {
        if (isAbsent()) return null;
        if (!node.isIntegralNumber()) {
            wrongType("integer");
            return null;
        }
        if (!node.canConvertToInt()) {
            invalid("must be a 32-bit integer");
            return null;
        }
        return node.intValue();
    }

    public Boolean bool() {
        if (isAbsent()) return null;
        if (!node.isBoolean()) {
            wrongType("boolean");
            return null;
        }
        return node.booleanValue();
    }

    /**
     * One of an enum's wire names. Absent and the empty string read as {@code defaultValue};
     * anything else outside the list is recorded as an unsupported value.
     */
    public <E> E oneOf(E[] values, Function<E, String> wireName, E defaultValue) {
        String text = text();
        if (text == null || text.isEmpty()) return defaultValue;
        for (E value : values) {
            if (wireName.apply(value).equals(text)) return value;
        }
        causes.add(FieldCause.notSupported(path, text, Arrays.stream(values).map(wireName).toList()));
        return defaultValue;
    }

    /** One of the given strings, or null when absent or empty; anything else is recorded as unsupported. */
    public String oneOf(List<String> supported) {
        String text = text();
        if (text == null || text.isEmpty()) return null;
        if (!supported.contains(text)) {
            causes.add(FieldCause.notSupported(path, text, supported));
            return null;
        }
        return text;
    }

    /** A quantity (string or number) in the canonical units of {@code resource}, or null when absent or invalid. */
    public Long quantity(String resource) {
        String text = quantityText();
        if (text == null) return null;
        try {
            return Quantity.amount(resource, text);
        } catch (InvalidQuantityException e) {
            invalidValue(text, e.getMessage());
            return null;
        }
    }

    /** A non-negative quantity as an exact decimal, or null when absent or invalid. */
    public BigDecimal decimalQuantity() {
        String text = quantityText();
        if (text == null) return null;
        try {
            BigDecimal value = Quantity.parse(text);
            if (value.signum() < 0) {
                invalidValue(text, "must be greater than or equal to 0");
                return null;
            }
            return value;
        } catch (InvalidQuantityException e) {
            invalidValue(text, e.getMessage());
            return null;
        }
    }

    private String quantityText() {
        if (isAbsent()) return null;
        if (node.isTextual()) return node.textValue();
        if (node.isNumber()) return node.decimalValue().toPlainString();
        wrongType("string");
        return null;
    }

    /** Records {@code Invalid value: <this value>: detail} at this path. */
    public void invalid(String detail) {
        causes.add(FieldCause.invalid(path, "Invalid value: " + render(node) + ": " + detail));
    }

    /** Records {@code Invalid value: "shown": detail} at this path, for values shown in their text form. */
    public void invalidValue(String shown, String detail) {
        causes.add(FieldCause.invalid(path, "Invalid value: " + quote(shown) + ": " + detail));
    }

    public void required() {
        causes.add(FieldCause.required(path));
    }

    public void required(String detail) {
        causes.add(new FieldCause(path, "Required value: " + detail, "FieldValueRequired"));
    }

    public void forbidden(String detail) {
        causes.add(new FieldCause(path, "Forbidden: " + detail, "FieldValueForbidden"));
    }

    public void duplicate(String value) {
        causes.add(new FieldCause(path, "Duplicate value: " + quote(value), "FieldValueDuplicate"));
    }

    /** Records Kubernetes' {@code Too many: n: must have at most max items} when the array is longer than max. */
    public void checkMaxItems(int max) {
        if (node.isArray() && node.size() > max) {
            causes.add(new FieldCause(path, "Too many: " + node.size() + ": must have at most " + max + " items",
                    "FieldValueTooMany"));
        }
    }

    /** Throws a 422 naming every cause recorded so far, if there is any. */
    public void throwIfInvalid(String kind, String name) {
        if (!causes.isEmpty()) throw InvalidObjectException.invalid(kind, name, causes);
    }

    private void wrongType(String type) {
        causes.add(FieldCause.invalid(path, "Invalid value: " + quote(typeName(node)) + ": must be of type " + type));
    }

    private FieldReader absent() {
        return new FieldReader(null, path, causes);
    }

    static String quote(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private static String render(JsonNode node) {
        if (node.isTextual()) return quote(node.textValue());
        if (node.isNumber() || node.isBoolean()) return node.asText();
        return quote(typeName(node));
    }

    private static String typeName(JsonNode node) {
        if (node.isObject()) return "object";
        if (node.isArray()) return "array";
        if (node.isIntegralNumber()) return "integer";
        if (node.isNumber()) return "number";
        if (node.isBoolean()) return "boolean";
        if (node.isTextual()) return "string";
        return "null";
    }
}
