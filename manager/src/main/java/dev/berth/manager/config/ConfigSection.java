package dev.berth.manager.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One object of a Kueue Configuration, read strictly as Kueue's decoder reads it: every typed read
 * consumes a key, and {@link #done()} refuses any key left over (a typo) with its full path. Each
 * value the file sets is recorded once, by path, in the shared {@code fieldsSet}, so the manager can
 * say which fields it acts on and warn about the rest. A YAML null counts as absent (Go's nil pointer).
 */
final class ConfigSection {
    private final String path;
    private final Map<String, Object> values;
    private final Set<String> consumed = new LinkedHashSet<>();
    private final Set<String> fieldsSet;

    private ConfigSection(String path, Map<String, Object> values, Set<String> fieldsSet) {
        this.path = path;
        this.values = values;
        this.fieldsSet = fieldsSet;
    }

    static ConfigSection root(Map<String, Object> values, Set<String> fieldsSet) {
        return new ConfigSection("", values, fieldsSet);
    }

    String path(String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    Set<String> keys() {
        return Set.copyOf(values.keySet());
    }

    boolean has(String key) {
        return values.get(key) != null;
    }

    private Object take(String key) {
        consumed.add(key);
        Object value = values.get(key);
        if (value != null && !(value instanceof Map<?, ?>) && !(value instanceof List<?> list && list.stream().anyMatch(Map.class::isInstance))) {
            fieldsSet.add(path(key));
        }
        return value;
    }

    private InvalidConfigurationException wrongType(String key, String expected, Object value) {
        return new InvalidConfigurationException(path(key), "expected " + expected + ", got " + describe(value));
    }

    private static String describe(Object value) {
        if (value instanceof Map<?, ?>) return "an object";
        if (value instanceof List<?>) return "a list";
        return "\"" + value + "\"";
    }

    String string(String key, String fallback) {
        Object value = take(key);
        if (value == null) return fallback;
        if (value instanceof Map<?, ?> || value instanceof List<?>) throw wrongType(key, "a string", value);
        return String.valueOf(value);
    }

    Boolean bool(String key, Boolean fallback) {
        Object value = take(key);
        if (value == null) return fallback;
        if (value instanceof Boolean b) return b;
        throw wrongType(key, "true or false", value);
    }

    Integer integer(String key, Integer fallback) {
        Object value = take(key);
        if (value == null) return fallback;
        if (value instanceof Integer || value instanceof Long) return ((Number) value).intValue();
        throw wrongType(key, "a whole number", value);
    }

    Integer nonNegative(String key, Integer fallback) {
        Integer value = integer(key, fallback);
        if (value != null && value < 0) throw new InvalidConfigurationException(path(key), "must be greater than or equal to 0, got " + value);
        return value;
    }

    Double number(String key, Double fallback) {
        Object value = take(key);
        if (value == null) return fallback;
        if (value instanceof Number n) return n.doubleValue();
        throw wrongType(key, "a number", value);
    }

    /** A Go duration ("5m", "1h30m"); negative values are refused, as Kueue's validation refuses them. */
    Duration duration(String key, Duration fallback) {
        Object value = take(key);
        if (value == null) return fallback;
        Duration parsed = value instanceof String text ? GoDuration.parse(text) : null;
        if (value instanceof Integer zero && zero == 0) parsed = Duration.ZERO;
        if (parsed == null) throw wrongType(key, "a duration such as 30s, 5m or 1h30m", value);
        if (parsed.isNegative()) throw new InvalidConfigurationException(path(key), "must be greater than or equal to 0, got " + value);
        return parsed;
    }

    /** A Go time.Duration, which JSON writes as whole nanoseconds; a duration text is accepted too. */
    Duration durationOrNanos(String key, Duration fallback) {
        Object value = values.get(key);
        if (value instanceof Integer || value instanceof Long) {
            take(key);
            long nanos = ((Number) value).longValue();
            if (nanos < 0) throw new InvalidConfigurationException(path(key), "must be greater than or equal to 0, got " + value);
            return Duration.ofNanos(nanos);
        }
        return duration(key, fallback);
    }

    List<String> strings(String key) {
        Object value = take(key);
        if (value == null) return List.of();
        if (!(value instanceof List<?> list)) throw wrongType(key, "a list of strings", value);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            Object item = list.get(i);
            if (item == null || item instanceof Map<?, ?> || item instanceof List<?>) {
                throw new InvalidConfigurationException(path(key) + "[" + i + "]", "expected a string, got " + describe(item));
            }
            out.add(String.valueOf(item));
        }
        return List.copyOf(out);
    }

    /** A map kept as a whole (a label selector, groupKindConcurrency): one field, recorded by its own path. */
    Map<String, Object> object(String key) {
        Object value = take(key);
        if (value == null) return null;
        if (!(value instanceof Map<?, ?>)) throw wrongType(key, "an object", value);
        fieldsSet.add(path(key));
        return copy(value);
    }

    /** A list of objects kept as a whole (deviceClassMappings, customLabels): one field, recorded by its own path. */
    List<Map<String, Object>> objects(String key) {
        Object value = take(key);
        if (value == null) return List.of();
        if (!(value instanceof List<?> list)) throw wrongType(key, "a list", value);
        fieldsSet.add(path(key));
        List<Map<String, Object>> out = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            if (!(list.get(i) instanceof Map<?, ?> item)) {
                throw new InvalidConfigurationException(path(key) + "[" + i + "]", "expected an object, got " + describe(list.get(i)));
            }
            out.add(copy(item));
        }
        return List.copyOf(out);
    }

    /** A map of name to boolean (featureGates): each entry is recorded as its own field. */
    Map<String, Boolean> booleans(String key) {
        Map<String, Boolean> out = new LinkedHashMap<>();
        ConfigSection section = section(key);
        if (section == null) return Map.of();
        for (String name : section.values.keySet()) {
            Boolean flag = section.bool(name, null);
            if (flag != null) out.put(name, flag);
        }
        return out;
    }

    /** A map of name to number (resourceWeights, outputs as quantities are kept as text). */
    Map<String, String> scalars(String key) {
        Map<String, String> out = new LinkedHashMap<>();
        ConfigSection section = section(key);
        if (section == null) return Map.of();
        for (String name : section.values.keySet()) {
            String value = section.string(name, null);
            if (value != null) out.put(name, value);
        }
        return out;
    }

    /** A nested object, or null when absent. Call {@link #done()} on it after reading. */
    ConfigSection section(String key) {
        Object value = take(key);
        if (value == null) return null;
        if (!(value instanceof Map<?, ?>)) throw wrongType(key, "an object", value);
        return new ConfigSection(path(key), copy(value), fieldsSet);
    }

    List<ConfigSection> sections(String key) {
        Object value = take(key);
        if (value == null) return List.of();
        if (!(value instanceof List<?> list)) throw wrongType(key, "a list", value);
        List<ConfigSection> out = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            if (!(list.get(i) instanceof Map<?, ?> item)) {
                throw new InvalidConfigurationException(path(key) + "[" + i + "]", "expected an object, got " + describe(list.get(i)));
            }
            out.add(new ConfigSection(path(key) + "[" + i + "]", copy(item), fieldsSet));
        }
        return out;
    }

    /** Refuses every key nothing read: Kueue decodes its Configuration strictly. */
    void done() {
        for (String key : values.keySet()) {
            if (!consumed.contains(key)) {
                throw new InvalidConfigurationException(path(key), "unknown field \"" + path(key) + "\" (Kueue's Configuration has no such field)");
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> copy(Object map) {
        Map<String, Object> out = new LinkedHashMap<>();
        ((Map<Object, Object>) map).forEach((k, v) -> out.put(String.valueOf(k), v));
        return out;
    }
}
