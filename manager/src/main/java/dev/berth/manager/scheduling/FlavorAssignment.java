package dev.berth.manager.scheduling;

import dev.berth.manager.model.Amounts;
import dev.berth.manager.model.Admission;
import dev.berth.manager.model.FlavorResource;
import dev.berth.manager.model.PodSetAssignment;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The result of assigning flavors to every pod set of a workload. */
public record FlavorAssignment(FitMode mode, boolean borrows, List<PodSetFlavors> podSets) {
    public FlavorAssignment {
        podSets = List.copyOf(podSets);
    }

    /** Quota the workload would use, per flavor and resource. */
    public Map<FlavorResource, Long> usage() {
        Map<FlavorResource, Long> usage = new HashMap<>();
        for (PodSetFlavors podSet : podSets) {
            for (Map.Entry<String, Long> used : podSet.resourceUsage().entrySet()) {
                String flavor = podSet.flavors().get(used.getKey());
                if (flavor != null) usage.merge(new FlavorResource(flavor, used.getKey()), used.getValue(), Amounts::add);
            }
        }
        return usage;
    }

    /** Kueue's pending message: the first pod set that does not fit, with its reasons. */
    public String message() {
        for (PodSetFlavors podSet : podSets) {
            if (podSet.mode() != FitMode.FIT) {
                return "couldn't assign flavors to pod set " + podSet.name() + ": " + String.join(", ", podSet.reasons());
            }
        }
        return null;
    }

    public Admission toAdmission(String clusterQueue) {
        return new Admission(clusterQueue, podSets.stream()
                .map(p -> new PodSetAssignment(p.name(), p.flavors(), p.resourceUsage(), p.count()))
                .toList());
    }
}
