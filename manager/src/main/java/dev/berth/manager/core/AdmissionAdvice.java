package dev.berth.manager.core;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What would admit a pending workload that does not fit: the smallest changes, each checked by a
 * re-run of the decision (empty when the workload is not waiting for quota, or nothing tried admits
 * it), and when the quota it needs frees up at the latest from the running workloads' maximum
 * execution times (null when that is not known), and who waits ahead of it for the same resources.
 */
public record AdmissionAdvice(List<AdmissionRemedy> remedies, Release release, Ahead ahead) {
    public static final AdmissionAdvice NONE = new AdmissionAdvice(List.of(), null, Ahead.NONE);

    public AdmissionAdvice {
        remedies = List.copyOf(remedies);
        if (ahead == null) ahead = Ahead.NONE;
    }

    /**
     * The pending workloads ahead of it in its ClusterQueue's order that ask for a resource it asks
     * for too, and what they ask for in total per resource (pods aside).
     */
    public record Ahead(int workloads, Map<String, Long> needs) {
        public static final Ahead NONE = new Ahead(0, Map.of());

        public Ahead {
            needs = Map.copyOf(needs);
        }
    }

    /**
     * The earliest instant by which enough running workloads reach their spec.maximumExecutionTimeSeconds
     * that a re-run without them admits the workload; workloads counts them, sameNamespace those of them
     * in the workload's own namespace (the rest are other teams': counted, never named).
     */
    public record Release(Instant at, int workloads, int sameNamespace) {
    }
}
