package dev.berth.manager.core;

/**
 * A Cohort's status in Kueue's v1beta2 schema: only {@code fairSharing.weightedShare}, present while
 * fair sharing is on (null otherwise, and the status is then empty, as Kueue leaves it).
 */
public record CohortStatus(Long weightedShare) {}
