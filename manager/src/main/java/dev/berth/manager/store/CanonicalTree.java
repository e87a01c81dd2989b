package dev.berth.manager.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.math.BigInteger;
import java.util.Map;

/**
 * Whether a tree is node for node what parsing its own serialization gives back: the same node classes
 * (an {@code int}-sized number is an {@link IntNode}, not a {@link LongNode}; no float, short, decimal, binary
 * or POJO nodes), so that {@code equals} against a parsed tree, and everything read from it, is the same. Only
 * such a tree may stand in for the parse of a stored object's bytes.
 */
final class CanonicalTree {
    private static final BigInteger LONG_MIN = BigInteger.valueOf(Long.MIN_VALUE);
    private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

    private CanonicalTree() {}

    static boolean test(JsonNode node) {
        if (node instanceof ObjectNode object) {
            for (Map.Entry<String, JsonNode> field : object.properties()) {
                if (!test(field.getValue())) return false;
            }
            return true;
        }
        if (node instanceof ArrayNode array) {
            for (JsonNode item : array) {
                if (!test(item)) return false;
            }
            return true;
        }
        if (node instanceof TextNode || node instanceof BooleanNode || node instanceof NullNode || node instanceof IntNode) return true;
        if (node instanceof LongNode) return !node.canConvertToInt();
        if (node instanceof BigIntegerNode) {
            BigInteger value = node.bigIntegerValue();
            return value.compareTo(LONG_MIN) < 0 || value.compareTo(LONG_MAX) > 0;
        }
        if (node instanceof DoubleNode) return Double.isFinite(node.doubleValue());
        return false;
    }
}
