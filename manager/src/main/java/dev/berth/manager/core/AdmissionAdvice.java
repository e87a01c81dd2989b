package dev.berth.manager.core;

import java.time.Instant;
import java.util.List;

/**
 * What would admit a pending workload that does not fit: the smallest changes, each checked by a
 * re-run of the decision (empty when the workload is not waiting for quota, or nothing tried admits
 * it), and when the quota it needs frees up at the latest from the running workloads' maximum
 * execution times (null when that is not known).
 */
public record AdmissionAdvice(List<AdmissionRemedy> remedies, Release release) {
    public static final AdmissionAdvice NONE = new AdmissionAdvice(List.of(), null);

    public AdmissionAdvice {
        remedies = List.copyOf(remedies);
    }

    /**
     * The earliest instant by which enough running workloads reach their spec.maximumExecutionTimeSeconds
     * that a re-run without them admits the workload; workloads counts them, sameNamespace those of them
     * in the workload's own namespace (the rest are other teams': counted, never named).
     */
    public record Release(Instant at, int workloads, int sameNamespace) {
    }
}
