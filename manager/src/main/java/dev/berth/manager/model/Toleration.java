package dev.berth.manager.model;

/** A pod toleration, with Kubernetes' matching rules. */
public record Toleration(String key, String operator, String value, String effect) {

    /** Kubernetes semantics: an empty key with Exists tolerates everything; an empty effect matches every effect. */
    public boolean tolerates(Taint taint) {
        if (effect != null && !effect.isEmpty() && !effect.equals(taint.effect())) return false;
        boolean exists = "Exists".equals(operator);
        if (key == null || key.isEmpty()) return exists;
        if (!key.equals(taint.key())) return false;
        if (exists) return true;
        String expected = value == null ? "" : value;
        String actual = taint.value() == null ? "" : taint.value();
        return expected.equals(actual);
    }
}
