package dev.berth.manager.core;

import java.time.Instant;
import java.util.Map;

/**
 * Kueue's LocalQueue status.fairSharing.admissionFairSharingStatus: the decayed resources the
 * LocalQueue consumed (per resource, in canonical amounts: millicores for cpu) and when they were last
 * sampled.
 */
public record LocalQueueFairSharingStatus(Map<String, Long> consumedResources, Instant lastUpdate) {
    public LocalQueueFairSharingStatus {
        consumedResources = Map.copyOf(consumedResources);
    }
}
