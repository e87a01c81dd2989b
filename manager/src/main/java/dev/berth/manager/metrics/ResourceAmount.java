package dev.berth.manager.metrics;

/** Canonical amounts as Kueue's metrics show them: cpu in cores, everything else in whole units. */
final class ResourceAmount {
    private ResourceAmount() {}

    static double of(String resource, long canonical) {
        return "cpu".equals(resource) ? canonical / 1000.0 : canonical;
    }
}
