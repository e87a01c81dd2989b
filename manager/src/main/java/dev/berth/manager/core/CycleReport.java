package dev.berth.manager.core;

/** What a call to {@link AdmissionController#schedule()} did: cycles run, heads nominated (admission decisions), admissions, preemptions. */
public record CycleReport(int cycles, int nominated, int admitted, int preempted, int stillPending) {
}
