package dev.berth.chaos;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * When a drill's fault was injected, when the manager first showed it (detection), and when the
 * system was whole again (recovery), with notes. Measured and reported; never asserted.
 */
public final class DrillTimeline {
    private Instant faultAt;
    private Instant detectedAt;
    private Instant recoveredAt;
    private final Map<String, Object> notes = new LinkedHashMap<>();

    public void fault() {
        faultAt = Instant.now();
    }

    public void detected() {
        if (detectedAt == null) detectedAt = Instant.now();
    }

    public void recovered() {
        if (recoveredAt == null) recoveredAt = Instant.now();
    }

    public void note(String key, Object value) {
        notes.put(key, value);
    }

    /** Seconds from the fault to detection, or null when not detected (or nothing was to be detected). */
    public Double detectionSeconds() {
        return seconds(faultAt, detectedAt);
    }

    /** Seconds from the fault to recovery, or null. */
    public Double recoverySeconds() {
        return seconds(faultAt, recoveredAt);
    }

    public Instant faultAt() {
        return faultAt;
    }

    public Map<String, Object> notes() {
        return Map.copyOf(notes);
    }

    private static Double seconds(Instant from, Instant to) {
        return from == null || to == null ? null : Duration.between(from, to).toMillis() / 1000.0;
    }
}
