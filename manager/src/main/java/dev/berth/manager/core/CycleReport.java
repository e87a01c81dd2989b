package dev.berth.manager.core;

/** What a call to {@link AdmissionController#schedule()} did. */
public record CycleReport(int cycles, int admitted, int preempted, int stillPending) {
}
