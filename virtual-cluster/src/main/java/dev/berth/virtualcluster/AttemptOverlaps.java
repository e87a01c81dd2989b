package dev.berth.virtualcluster;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The failover invariant: no two dispatch attempts of the same workload ran pods at the same time,
 * across all clusters. Pods without a workload or attempt label are ignored.
 */
public final class AttemptOverlaps {

    /** Two pods of different attempts of one workload that ran at a common instant. */
    public record Overlap(String workload, PodInterval first, PodInterval second) {
        @Override
        public String toString() {
            return "workload " + workload + ": attempt " + first.attemptId() + " pod " + first.cluster() + "/"
                + first.pod() + " [" + first.startMillis() + ".." + first.endMillis() + "] overlaps attempt "
                + second.attemptId() + " pod " + second.cluster() + "/" + second.pod() + " ["
                + second.startMillis() + ".." + second.endMillis() + "]";
        }
    }

    private AttemptOverlaps() {}

    public static List<Overlap> find(Collection<PodInterval> intervals) {
        Map<String, List<PodInterval>> byWorkload = new LinkedHashMap<>();
        for (PodInterval interval : intervals) {
            if (interval.workload() != null && interval.attemptId() != null) {
                byWorkload.computeIfAbsent(interval.workload(), w -> new ArrayList<>()).add(interval);
            }
        }
        List<Overlap> overlaps = new ArrayList<>();
        byWorkload.forEach((workload, pods) -> {
            for (int i = 0; i < pods.size(); i++) {
                for (int j = i + 1; j < pods.size(); j++) {
                    PodInterval a = pods.get(i);
                    PodInterval b = pods.get(j);
                    if (!Objects.equals(a.attemptId(), b.attemptId()) && a.overlaps(b)) {
                        overlaps.add(new Overlap(workload, a, b));
                    }
                }
            }
        });
        return overlaps;
    }

    /** Fails with a readable list of the overlaps when there are any. */
    public static void assertNone(Collection<PodInterval> intervals) {
        List<Overlap> overlaps = find(intervals);
        if (!overlaps.isEmpty()) {
            StringBuilder message = new StringBuilder(overlaps.size() + " overlapping attempt(s):");
            overlaps.forEach(o -> message.append("\n  ").append(o));
            throw new AssertionError(message.toString());
        }
    }
}
