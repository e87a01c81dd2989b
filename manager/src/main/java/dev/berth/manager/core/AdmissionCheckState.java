package dev.berth.manager.core;

import java.time.Instant;

/** One entry of a workload's status.admissionChecks: Pending, Ready, Retry or Rejected. */
public record AdmissionCheckState(String name, String state, String message, Instant lastTransitionTime) {
}
