package dev.berth.manager.objects;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Carries fields that one API version cannot express through an object of the other version, in an
 * annotation, so a conversion there and back loses nothing (Cluster API's conversion-data pattern).
 * Fields are named by JSON pointers whose {@code *} segment matches every element of an array.
 */
final class ConversionStash {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ConversionStash() {}

    /** Removes every field matching the patterns. */
    static void drop(ObjectNode object, List<String> patterns) {
        for (String pattern : patterns) {
            for (String pointer : expand(object, pattern)) {
                int slash = pointer.lastIndexOf('/');
                if (object.at(pointer.substring(0, slash)) instanceof ObjectNode parent) {
                    parent.remove(unescape(pointer.substring(slash + 1)));
                }
            }
        }
    }

    /** Moves every field matching the patterns out of the object into the annotation (added to what is there). */
    static void stash(ObjectNode object, List<String> patterns, String annotation) {
        Map<String, JsonNode> moved = new TreeMap<>();
        for (String pattern : patterns) {
            for (String pointer : expand(object, pattern)) {
                int slash = pointer.lastIndexOf('/');
                JsonNode parent = object.at(pointer.substring(0, slash));
                if (parent instanceof ObjectNode parentObject) {
                    JsonNode value = parentObject.remove(unescape(pointer.substring(slash + 1)));
                    if (value != null) moved.put(pointer, value);
                }
            }
        }
        if (moved.isEmpty()) return;
        ObjectNode stash = read(object, annotation);
        moved.forEach(stash::set);
        ObjectNode annotations = object.with("metadata").with("annotations");
        annotations.put(annotation, write(stash));
    }

    /**
     * Puts the fields of the annotation back where they were and removes the annotation. Only pointers
     * that match one of the patterns are honoured: the annotation cannot set any other field.
     */
    static void restore(ObjectNode object, List<String> patterns, String annotation) {
        ObjectNode stash = read(object, annotation);
        JsonNode annotations = object.path("metadata").path("annotations");
        if (annotations instanceof ObjectNode annotationsObject && annotationsObject.has(annotation)) {
            annotationsObject.remove(annotation);
            if (annotationsObject.isEmpty()) ((ObjectNode) object.get("metadata")).remove("annotations");
        }
        for (Map.Entry<String, JsonNode> field : stash.properties()) {
            if (patterns.stream().anyMatch(pattern -> matches(field.getKey(), pattern))) put(object, field.getKey(), field.getValue());
        }
    }

    private static boolean matches(String pointer, String pattern) {
        String[] segments = pointer.split("/", -1);
        String[] expected = pattern.split("/", -1);
        if (segments.length != expected.length || !segments[0].isEmpty()) return false;
        for (int i = 1; i < segments.length; i++) {
            boolean any = expected[i].equals("*") && segments[i].matches("\\d{1,6}");
            if (!any && !expected[i].equals(segments[i])) return false;
        }
        return true;
    }

    /** Sets the value at the pointer, creating missing objects on the way; an array index that is gone is skipped. */
    private static void put(ObjectNode object, String pointer, JsonNode value) {
        String[] segments = pointer.substring(1).split("/");
        JsonNode node = object;
        for (int i = 0; i < segments.length - 1; i++) {
            String segment = unescape(segments[i]);
            if (node instanceof ObjectNode container) {
                JsonNode next = container.get(segment);
                node = next instanceof ObjectNode || next instanceof ArrayNode ? next : container.putObject(segment);
            } else if (node instanceof ArrayNode array && segment.matches("\\d+") && Integer.parseInt(segment) < array.size()) {
                node = array.get(Integer.parseInt(segment));
            } else {
                return;
            }
        }
        if (!(node instanceof ObjectNode container)) return;
        String field = unescape(segments[segments.length - 1]);
        if (container.get(field) instanceof ObjectNode present && value instanceof ObjectNode carried) {
            // the other version's fields of an object the conversion rebuilt (a MultiKueueCluster's clusterSource)
            for (Map.Entry<String, JsonNode> entry : carried.properties()) {
                if (!present.has(entry.getKey())) present.set(entry.getKey(), entry.getValue());
            }
        } else {
            container.set(field, value);
        }
    }

    /** The concrete pointers a pattern names in this object; {@code *} stands for each index of an array. */
    private static List<String> expand(JsonNode object, String pattern) {
        List<String> pointers = new ArrayList<>();
        pointers.add("");
        for (String segment : pattern.substring(1).split("/")) {
            List<String> next = new ArrayList<>();
            for (String prefix : pointers) {
                if (segment.equals("*")) {
                    JsonNode array = object.at(prefix);
                    for (int i = 0; array.isArray() && i < array.size(); i++) next.add(prefix + "/" + i);
                } else if (object.at(prefix).has(unescape(segment))) {
                    next.add(prefix + "/" + segment);
                }
            }
            pointers = next;
        }
        return pointers;
    }

    private static ObjectNode read(ObjectNode object, String annotation) {
        String text = object.path("metadata").path("annotations").path(annotation).asText("");
        if (text.isEmpty()) return JSON.createObjectNode();
        try {
            return JSON.readTree(text) instanceof ObjectNode stash ? stash : JSON.createObjectNode();
        } catch (JsonProcessingException notJson) {
            return JSON.createObjectNode();
        }
    }

    private static String write(ObjectNode stash) {
        try {
            return JSON.writeValueAsString(stash);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree always serializes", e);
        }
    }

    private static String unescape(String segment) {
        return segment.replace("~1", "/").replace("~0", "~");
    }
}
