package dev.berth.protocol;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Objects as fabric8 and Jackson hand them over untyped: maps, lists and scalars. */
public final class JsonValues {
    private JsonValues() {}

    /** A deep, mutable copy of a JSON-like value (maps keep their order; scalars are shared). */
    public static Object deepCopy(Object value) {
        if (value instanceof Map<?, ?> m) {
            Map<String, Object> copy = new LinkedHashMap<>();
            m.forEach((k, v) -> copy.put(String.valueOf(k), deepCopy(v)));
            return copy;
        }
        if (value instanceof List<?> l) {
            List<Object> copy = new ArrayList<>();
            l.forEach(v -> copy.add(deepCopy(v)));
            return copy;
        }
        return value;
    }
}
