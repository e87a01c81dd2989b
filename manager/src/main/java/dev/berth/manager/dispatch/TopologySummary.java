package dev.berth.manager.dispatch;

import dev.berth.manager.model.Quantity;
import java.util.List;
import java.util.Map;

/**
 * The one line that says why no cluster's topology holds a waiting workload, across clusters, with
 * numbers: "no rack in any cluster has 16 nvidia.com/gpu free in flavor h100 for pod set main; best:
 * cluster gpu-west block-1/rack-2 with 12". Pure.
 */
public final class TopologySummary {
    private TopologySummary() {}

    /** Null when the decision placed the workload or no cluster was short of a topology domain. */
    public static String of(PlacementDecision decision) {
        if (decision.placed() || decision.shortfalls().isEmpty()) return null;
        String bestCluster = null;
        TopologyShortfall best = null;
        for (Map.Entry<String, List<TopologyShortfall>> cluster : decision.shortfalls().entrySet()) {
            for (TopologyShortfall shortfall : cluster.getValue()) {
                if (best == null || shortfall.bestFits() > best.bestFits()) {
                    best = shortfall;
                    bestCluster = cluster.getKey();
                }
            }
        }
        if (best == null) return null;
        String what = Quantity.format(best.resource(), best.needed()) + " " + best.resource() + " free in flavor " + best.flavor()
                + " for the " + best.count() + " pods of " + best.podSet();
        String line = best.level() == null ? "no cluster has " + what : "no " + best.levelName() + " in any cluster has " + what;
        String where = best.best().isEmpty() ? "" : " " + String.join("/", best.best());
        return line + "; best: cluster " + bestCluster + where + " with " + Quantity.format(best.resource(), best.bestFree())
                + " (room for " + best.bestFits() + " pods)";
    }
}
