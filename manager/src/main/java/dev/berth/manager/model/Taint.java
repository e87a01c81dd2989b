package dev.berth.manager.model;

/** A node taint, as a ResourceFlavor's nodeTaints declares it. */
public record Taint(String key, String value, String effect) {
    @Override
    public String toString() {
        return key + (value == null || value.isEmpty() ? "" : "=" + value) + ":" + effect;
    }
}
