package dev.berth.manager.dispatch;

/** A cluster's health with a message a person can act on. */
public record HealthAssessment(ClusterHealth health, String message) {
}
