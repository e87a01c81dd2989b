package dev.berth.manager.core;

import java.time.Instant;

/** A metav1.Condition on a workload or queue. */
public record Condition(String type, boolean status, String reason, String message, Instant lastTransitionTime) {
}
