package dev.berth.manager.core;

import dev.berth.manager.model.PodSetRequest;
import dev.berth.manager.model.WorkloadRequest;
import dev.berth.manager.scheduling.FitMode;
import dev.berth.manager.scheduling.FlavorAssigner;
import dev.berth.manager.scheduling.FlavorAssignment;
import java.util.List;

/** Kueue's partial admission: the largest counts, down to each pod set's minCount, that fit without preemption. */
final class PartialAdmission {
    private PartialAdmission() {}

    static FlavorAssignment largestFitting(FlavorAssigner assigner, WorkloadRequest request) {
        List<PodSetRequest> podSets = request.podSets();
        boolean reducible = podSets.stream().anyMatch(p -> p.minCount() != null && p.minCount() < p.count());
        if (!reducible) return null;
        int steps = 0;
        for (PodSetRequest podSet : podSets) {
            if (podSet.minCount() != null) steps = Math.max(steps, podSet.count() - podSet.minCount());
        }
        int low = 0;
        int high = steps - 1;
        FlavorAssignment best = null;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            FlavorAssignment attempt = assigner.assign(request, countsAt(podSets, mid, steps));
            if (attempt.mode() == FitMode.FIT) {
                best = attempt;
                low = mid + 1;
            } else {
                high = mid - 1;
            }
        }
        return best;
    }

    private static int[] countsAt(List<PodSetRequest> podSets, int step, int steps) {
        int[] counts = new int[podSets.size()];
        for (int i = 0; i < counts.length; i++) {
            PodSetRequest podSet = podSets.get(i);
            if (podSet.minCount() == null) {
                counts[i] = podSet.count();
            } else {
                long range = podSet.count() - podSet.minCount();
                counts[i] = (int) (podSet.minCount() + range * step / steps);
            }
        }
        return counts;
    }
}
