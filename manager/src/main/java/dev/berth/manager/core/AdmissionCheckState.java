package dev.berth.manager.core;

import java.time.Instant;

/**
 * One entry of a workload's status.admissionChecks: Pending, Ready, Retry or Rejected. retryCount
 * counts the evictions this check caused with Retry; requeueAfterSeconds (null when not set) is how
 * long after a Retry the workload waits before it is queued again, as the check's controller asks.
 */
public record AdmissionCheckState(String name, String state, String message, Instant lastTransitionTime,
                                  int retryCount, Integer requeueAfterSeconds) {
    public AdmissionCheckState(String name, String state, String message, Instant lastTransitionTime) {
        this(name, state, message, lastTransitionTime, 0, null);
    }
}
