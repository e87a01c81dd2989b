package dev.berth.virtualcluster;

import dev.berth.protocol.Labels;
import java.util.Map;

/**
 * When one simulated pod ran: from {@code startMillis} to {@code endMillis}, or still running
 * ({@code endMillis} null) when the record has no end for it (the cluster was killed, or it runs on).
 */
public record PodInterval(
    String cluster, String namespace, String pod, String uid, String node,
    Map<String, String> labels, long startMillis, Long endMillis, String endPhase) {

    public PodInterval {
        labels = Map.copyOf(labels);
    }

    public boolean ended() {
        return endMillis != null;
    }

    public String workload() {
        return labels.get(Labels.WORKLOAD_NAME);
    }

    public String attemptId() {
        return labels.get(Labels.ATTEMPT_ID);
    }

    /** True when both ran at some common instant; an open interval runs forever. */
    public boolean overlaps(PodInterval other) {
        long thisEnd = endMillis == null ? Long.MAX_VALUE : endMillis;
        long otherEnd = other.endMillis == null ? Long.MAX_VALUE : other.endMillis;
        return startMillis < otherEnd && other.startMillis < thisEnd;
    }
}
