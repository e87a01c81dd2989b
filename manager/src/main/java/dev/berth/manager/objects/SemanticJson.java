package dev.berth.manager.objects;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.manager.model.InvalidQuantityException;
import dev.berth.manager.model.Quantity;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;

/**
 * JSON compared as kube-apiserver compares two versions of a typed object (its semantic DeepEqual): an absent field,
 * null, "", {} and [] are alike; numbers compare by value; the values of a {@code requests}, {@code limits} or
 * {@code overhead} map compare as resource quantities, so {@code 1}, {@code "1"} and {@code "1000m"} are the same CPU.
 */
final class SemanticJson {
    private static final Set<String> QUANTITY_MAPS = Set.of("requests", "limits", "overhead");

    private SemanticJson() {}

    static boolean same(JsonNode a, JsonNode b) {
        return firstDifference(a, b, "").isEmpty();
    }

    /** The path of the first place where b differs from a, under the given path; empty when they are alike. */
    static Optional<String> firstDifference(JsonNode a, JsonNode b, String path) {
        return diff(a, b, path, false);
    }

    static boolean isEmpty(JsonNode node) {
        return node == null || node.isMissingNode() || node.isNull() || (node.isContainerNode() && node.isEmpty())
                || (node.isTextual() && node.asText().isEmpty());
    }

    private static Optional<String> diff(JsonNode a, JsonNode b, String path, boolean quantity) {
        if (isEmpty(a) || isEmpty(b)) return isEmpty(a) && isEmpty(b) ? Optional.empty() : Optional.of(path);
        if (a.isObject() && b.isObject()) {
            boolean quantities = QUANTITY_MAPS.contains(path.substring(path.lastIndexOf('.') + 1));
            Set<String> names = new LinkedHashSet<>();
            a.fieldNames().forEachRemaining(names::add);
            b.fieldNames().forEachRemaining(names::add);
            for (String name : names) {
                Optional<String> found = diff(a.path(name), b.path(name), path.isEmpty() ? name : path + "." + name, quantities);
                if (found.isPresent()) return found;
            }
            return Optional.empty();
        }
        if (a.isArray() && b.isArray()) {
            if (a.size() != b.size()) return Optional.of(path);
            Iterator<JsonNode> left = a.elements();
            Iterator<JsonNode> right = b.elements();
            for (int i = 0; left.hasNext(); i++) {
                Optional<String> found = diff(left.next(), right.next(), path + "[" + i + "]", false);
                if (found.isPresent()) return found;
            }
            return Optional.empty();
        }
        if (quantity && a.isValueNode() && b.isValueNode()) return sameQuantity(a, b) ? Optional.empty() : Optional.of(path);
        if (a.isNumber() && b.isNumber()) return a.decimalValue().compareTo(b.decimalValue()) == 0 ? Optional.empty() : Optional.of(path);
        return a.equals(b) ? Optional.empty() : Optional.of(path);
    }

    private static boolean sameQuantity(JsonNode a, JsonNode b) {
        try {
            return Quantity.parse(a.asText()).compareTo(Quantity.parse(b.asText())) == 0;
        } catch (InvalidQuantityException notQuantities) {
            return a.equals(b);
        }
    }
}
