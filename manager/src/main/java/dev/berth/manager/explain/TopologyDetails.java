package dev.berth.manager.explain;

import dev.berth.manager.dispatch.DomainChoice;
import dev.berth.manager.dispatch.PlacementDecision;
import dev.berth.manager.dispatch.TopologyShortfall;
import dev.berth.manager.dispatch.TopologySummary;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The topology part of the dispatch layer (issue 18), with numbers: the domain placement chose for
 * each pod set that asked for one, or, while no cluster's topology holds it, the one-line summary
 * ("no rack in any cluster has 16 nvidia.com/gpu free ...; best: cluster gpu-west block-1/rack-2 with 12")
 * and per cluster the best domain at the requested level with what it has room for.
 */
final class TopologyDetails {
    private TopologyDetails() {}

    /** Null when the placement involved no topology. */
    static Map<String, Object> of(PlacementDecision placement) {
        Map<String, Object> topology = new LinkedHashMap<>();
        String summary = TopologySummary.of(placement);
        if (summary != null) topology.put("summary", summary);
        List<Map<String, Object>> chosen = new ArrayList<>();
        placement.domains().forEach((cluster, choices) -> choices.forEach(choice -> chosen.add(chosen(cluster, choice))));
        if (!chosen.isEmpty()) topology.put("chosen", chosen);
        List<Map<String, Object>> short_ = new ArrayList<>();
        placement.shortfalls().forEach((cluster, shortfalls) -> shortfalls.forEach(s -> short_.add(shortfall(cluster, s))));
        if (!short_.isEmpty()) topology.put("shortfalls", short_);
        return topology.isEmpty() ? null : topology;
    }

    private static Map<String, Object> chosen(String cluster, DomainChoice choice) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("cluster", cluster);
        row.put("podSet", choice.podSet());
        row.put("flavor", choice.flavor());
        row.put("mode", choice.request().mode().name());
        if (choice.request().level() != null) row.put("requestedLevel", choice.request().level());
        row.put("level", choice.level() == null ? "(whole flavor)" : choice.level());
        row.put("domain", String.join("/", choice.domain()));
        row.put("levelsUp", choice.levelsUp());
        row.put("podsThatFit", choice.fits());
        row.put("spare", choice.spare());
        return row;
    }

    private static Map<String, Object> shortfall(String cluster, TopologyShortfall shortfall) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("cluster", cluster);
        row.put("podSet", shortfall.podSet());
        row.put("flavor", shortfall.flavor());
        row.put("level", shortfall.level() == null ? "(whole flavor)" : shortfall.level());
        row.put("pods", shortfall.count());
        row.put("resource", shortfall.resource());
        row.put("needed", shortfall.needed());
        row.put("bestDomain", String.join("/", shortfall.best()));
        row.put("bestPodsThatFit", shortfall.bestFits());
        row.put("bestFree", shortfall.bestFree());
        return row;
    }
}
