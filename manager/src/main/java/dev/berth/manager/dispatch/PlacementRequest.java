package dev.berth.manager.dispatch;

import dev.berth.manager.model.Amounts;
import dev.berth.manager.model.WorkloadKey;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/** A workload that holds quota and needs a worker cluster: its pod sets as admitted, and its priority. */
public record PlacementRequest(WorkloadKey workload, int priority, List<PodSetDemand> podSets) {
    public PlacementRequest {
        podSets = List.copyOf(podSets);
    }

    /** Every flavor the manager assigned, sorted. */
    public Set<String> flavors() {
        Set<String> flavors = new TreeSet<>();
        for (PodSetDemand podSet : podSets) flavors.addAll(podSet.flavors().values());
        return flavors;
    }

    /** Total demand per flavor and resource of the whole workload, sorted by flavor then resource. */
    public Map<String, Map<String, Long>> totalByFlavor() {
        Map<String, Map<String, Long>> totals = new TreeMap<>();
        for (PodSetDemand podSet : podSets) {
            for (Map.Entry<String, Long> request : podSet.perPodRequests().entrySet()) {
                String flavor = podSet.flavors().get(request.getKey());
                if (flavor == null) continue;
                totals.computeIfAbsent(flavor, f -> new TreeMap<>())
                        .merge(request.getKey(), Amounts.multiply(request.getValue(), podSet.count()), Amounts::add);
            }
        }
        return totals;
    }
}
