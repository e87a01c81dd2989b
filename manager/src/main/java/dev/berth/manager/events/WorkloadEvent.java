package dev.berth.manager.events;

/** An event to record about a workload: Normal or Warning, Kueue's reason, and the message. */
public record WorkloadEvent(String type, String reason, String message) {}
