package dev.berth.manager.explain;

import dev.berth.protocol.VisibilityApi.States;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One layer of an explanation: its name (admission, dispatch, worker, runtime), its state (ok,
 * blocked, waiting, notReached), a CamelCase reason, one sentence with the numbers, and details.
 */
public record Layer(String layer, String state, String reason, String message, Map<String, Object> details) {
    public Layer {
        details = Collections.unmodifiableMap(new LinkedHashMap<>(details));
    }

    public boolean stops() {
        return States.BLOCKED.equals(state) || States.WAITING.equals(state);
    }

    public boolean reached() {
        return !States.NOT_REACHED.equals(state);
    }

    static Layer ok(String layer, String reason, String message, Map<String, Object> details) {
        return new Layer(layer, States.OK, reason, message, details);
    }

    static Layer blocked(String layer, String reason, String message, Map<String, Object> details) {
        return new Layer(layer, States.BLOCKED, reason, message, details);
    }

    static Layer waiting(String layer, String reason, String message, Map<String, Object> details) {
        return new Layer(layer, States.WAITING, reason, message, details);
    }

    static Layer notReached(String layer, String message) {
        return new Layer(layer, States.NOT_REACHED, dev.berth.protocol.VisibilityApi.Reasons.NOT_REACHED, message, Map.of());
    }
}
