package dev.berth.manager.dashboard;

/**
 * One core/v1 Event as the dashboard lists it: where and why, the object it is about, how often it
 * was seen and when last (RFC 3339, may be null).
 */
public record DashboardEvent(String namespace, String type, String reason, String message, String objectKind,
                             String objectName, int count, String lastTimestamp) {
}
