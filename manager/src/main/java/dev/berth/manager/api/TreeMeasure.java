package dev.berth.manager.api;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.Map;

/**
 * The estimated JSON size and the nesting depth of a Jackson tree, measured without recursion and
 * stopping as soon as the size passes a cap, so that measuring costs no more than the cap allows.
 * Depth counts containers as Jackson's nesting limit does: a scalar is 0, {@code {}} is 1.
 */
record TreeMeasure(long bytes, int depth) {
    /** Whether the walk stopped because the cap was passed (bytes is then just over the cap). */
    boolean over(long cap) {
        return bytes > cap;
    }

    static TreeMeasure of(JsonNode root, long cap) {
        record Frame(JsonNode node, int depth) {}
        Deque<Frame> pending = new ArrayDeque<>();
        pending.push(new Frame(root, 0));
        long bytes = 0;
        int depth = 0;
        while (!pending.isEmpty() && bytes <= cap) {
            Frame frame = pending.pop();
            JsonNode node = frame.node();
            if (node.isObject()) {
                int inside = frame.depth() + 1;
                depth = Math.max(depth, inside);
                bytes += 2;
                for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> field = it.next();
                    bytes += field.getKey().length() + 4;
                    pending.push(new Frame(field.getValue(), inside));
                    if (bytes > cap) break;
                }
            } else if (node.isArray()) {
                int inside = frame.depth() + 1;
                depth = Math.max(depth, inside);
                bytes += 2;
                for (JsonNode item : node) {
                    bytes += 1;
                    pending.push(new Frame(item, inside));
                    if (bytes > cap) break;
                }
            } else if (node.isTextual()) {
                bytes += node.textValue().length() + 2;
            } else {
                bytes += node.asText().length();
            }
        }
        return new TreeMeasure(bytes, depth);
    }
}
