package dev.berth.agent;

import dev.berth.protocol.crd.PodSetTopologyAssignment;
import java.util.ArrayList;
import java.util.List;

/** The status field for an admission's topology placements: one Kueue-shaped assignment per placed pod set, or null when none. */
public final class TopologyReport {
    private TopologyReport() {}

    public static List<PodSetTopologyAssignment> assignments(AdmissionResult.Fits fits) {
        if (fits.topology().isEmpty()) return null;
        List<PodSetTopologyAssignment> result = new ArrayList<>();
        fits.topology().values().forEach(placed -> result.add(placed.assignment()));
        return result;
    }
}
