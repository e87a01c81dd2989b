package dev.berth.manager.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.objects.InvalidObjectException;
import java.math.BigInteger;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * Turns a composed SnakeYAML document into a Jackson tree as Kubernetes' YAML-to-JSON does:
 * aliases expanded, timestamps kept as strings, duplicate keys refused. Expansion is bounded by a
 * node budget and a depth limit, so neither an alias bomb nor a self-referencing alias can exhaust memory,
 * and by the bytes that aliases add (estimated as JSON, scalars included: SnakeYAML's own alias limit
 * counts only collections), so that a small body cannot become a large object.
 */
final class YamlTreeConverter {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final int maxDepth;
    private final long maxAliasBytes;
    private final Set<Node> anchored = Collections.newSetFromMap(new IdentityHashMap<>());
    private long budget;
    private long aliasBytes;
    private int insideAlias;

    YamlTreeConverter(int maxDepth, long maxNodes, long maxAliasBytes) {
        this.maxDepth = maxDepth;
        this.budget = maxNodes;
        this.maxAliasBytes = maxAliasBytes;
    }

    JsonNode convert(Node node) {
        return convert(node, 0);
    }

    private JsonNode convert(Node node, int depth) {
        if (--budget < 0) {
            throw InvalidObjectException.badRequest("yaml: " + where(node) + ": document expands to too many nodes (alias expansion is limited)");
        }
        if (depth > maxDepth) {
            throw InvalidObjectException.badRequest("yaml: " + where(node) + ": nesting is deeper than " + maxDepth + " levels");
        }
        boolean alias = node.getAnchor() != null && !anchored.add(node);
        if (alias) insideAlias++;
        try {
            if (node instanceof MappingNode mapping) {
                expanded(node, 2);
                return mapping(mapping, depth);
            }
            if (node instanceof SequenceNode sequence) {
                expanded(node, 2);
                ArrayNode array = NODES.arrayNode();
                for (Node item : sequence.getValue()) {
                    expanded(item, 1);
                    array.add(convert(item, depth + 1));
                }
                return array;
            }
            ScalarNode scalar = (ScalarNode) node;
            expanded(node, scalar.getValue().length() + 2L);
            return scalar(scalar);
        } finally {
            if (alias) insideAlias--;
        }
    }

    /** Counts bytes produced by expanding an alias (the anchored original is free: the body holds it). */
    private void expanded(Node node, long bytes) {
        if (insideAlias == 0) return;
        aliasBytes += bytes;
        if (aliasBytes > maxAliasBytes) {
            throw InvalidObjectException.badRequest("yaml: " + where(node) + ": aliases expand to more than "
                    + maxAliasBytes + " bytes (alias expansion is limited)");
        }
    }

    private ObjectNode mapping(MappingNode mapping, int depth) {
        ObjectNode object = NODES.objectNode();
        Set<String> seen = new HashSet<>();
        ObjectNode merged = null;
        for (NodeTuple tuple : mapping.getValue()) {
            Node keyNode = tuple.getKeyNode();
            if (keyNode.getTag().equals(Tag.MERGE)) {
                merged = mergeSource(tuple.getValueNode(), depth, merged);
                continue;
            }
            if (!(keyNode instanceof ScalarNode scalarKey)) {
                throw InvalidObjectException.badRequest("yaml: " + where(keyNode) + ": a mapping key must be a scalar");
            }
            String key = scalarKey.getValue();
            expanded(keyNode, key.length() + 4L);
            if (!seen.add(key)) {
                throw InvalidObjectException.badRequest("yaml: " + where(keyNode) + ": duplicate key \"" + key + "\"");
            }
            object.set(key, convert(tuple.getValueNode(), depth + 1));
        }
        if (merged != null) {
            for (Map.Entry<String, JsonNode> field : merged.properties()) {
                if (!object.has(field.getKey())) object.set(field.getKey(), field.getValue());
            }
        }
        return object;
    }

    /** YAML merge keys ({@code <<: *base}): fields of the merged mappings, the explicit ones winning. */
    private ObjectNode mergeSource(Node value, int depth, ObjectNode merged) {
        ObjectNode result = merged == null ? NODES.objectNode() : merged;
        if (value instanceof SequenceNode sequence) {
            for (Node item : sequence.getValue()) mergeSource(item, depth, result);
            return result;
        }
        JsonNode source = convert(value, depth + 1);
        if (!source.isObject()) {
            throw InvalidObjectException.badRequest("yaml: " + where(value) + ": a merge key must refer to a mapping");
        }
        for (Map.Entry<String, JsonNode> field : source.properties()) {
            if (!result.has(field.getKey())) result.set(field.getKey(), field.getValue());
        }
        return result;
    }

    private static JsonNode scalar(ScalarNode node) {
        String text = node.getValue();
        Tag tag = node.getTag();
        if (tag.equals(Tag.NULL)) return NODES.nullNode();
        if (tag.equals(Tag.BOOL)) {
            String lower = text.toLowerCase(Locale.ROOT);
            return NODES.booleanNode(lower.equals("true") || lower.equals("yes") || lower.equals("on") || lower.equals("y"));
        }
        if (tag.equals(Tag.INT)) {
            BigInteger value = integer(text);
            if (value != null) return value.bitLength() < 64 ? NODES.numberNode(value.longValue()) : NODES.numberNode(value);
        }
        if (tag.equals(Tag.FLOAT)) {
            try {
                double value = Double.parseDouble(text.replace("_", ""));
                if (Double.isFinite(value)) return NODES.numberNode(value);
            } catch (NumberFormatException e) {
                return NODES.textNode(text);
            }
        }
        return NODES.textNode(text);
    }

    private static BigInteger integer(String text) {
        String digits = text.replace("_", "");
        boolean negative = digits.startsWith("-");
        if (digits.startsWith("-") || digits.startsWith("+")) digits = digits.substring(1);
        try {
            BigInteger value;
            if (digits.startsWith("0x")) value = new BigInteger(digits.substring(2), 16);
            else if (digits.startsWith("0o")) value = new BigInteger(digits.substring(2), 8);
            else if (digits.startsWith("0b")) value = new BigInteger(digits.substring(2), 2);
            else if (digits.length() > 1 && digits.startsWith("0")) value = new BigInteger(digits.substring(1), 8);
            else value = new BigInteger(digits);
            return negative ? value.negate() : value;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    static String where(Node node) {
        Mark mark = node.getStartMark();
        return mark == null ? "unknown position" : "line " + (mark.getLine() + 1) + ", column " + (mark.getColumn() + 1);
    }
}
