package dev.berth.agent;

import io.fabric8.kubernetes.api.model.Taint;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * All-or-nothing admission of an attempt: every pod of every pod set must fit on a matching node.
 * Pod sets with a topology request are placed first, inside their domain, by {@link TopologyAssigner};
 * the others are packed first-fit decreasing (largest GPU, then cpu, then memory request first) over
 * nodes by name on what is left.
 */
public final class AttemptAdmission {
    private AttemptAdmission() {}

    public static AdmissionResult admit(ClusterSnapshot snapshot, List<PodDemand> demands) {
        for (PodDemand demand : demands) {
            Optional<String> unmatched = unmatchedReason(snapshot, demand.requirement());
            if (unmatched.isPresent()) return new AdmissionResult.DoesNotFit(unmatched.get());
        }
        ClusterSnapshot current = snapshot;
        List<String> placements = new ArrayList<>();
        Map<String, TopologyPlacement.Placed> topology = new LinkedHashMap<>();
        for (PodDemand demand : demands) {
            if (!demand.hasTopology()) continue;
            TopologyPlacement.Result result = TopologyAssigner.assign(current, demand);
            if (result instanceof TopologyPlacement.NotPlaced notPlaced) return new AdmissionResult.DoesNotFit(notPlaced.reason());
            TopologyPlacement.Placed placed = (TopologyPlacement.Placed) result;
            current = placed.after();
            placements.addAll(placed.nodes());
            topology.put(demand.podSet(), placed);
        }
        List<PodDemand> pods = new ArrayList<>();
        for (PodDemand demand : demands) {
            if (demand.hasTopology()) continue;
            for (int i = 0; i < demand.count(); i++) pods.add(demand);
        }
        pods.sort(Comparator.comparingLong((PodDemand p) -> p.requests().getOrDefault("nvidia.com/gpu", 0L))
                .thenComparingLong(p -> p.requests().getOrDefault("cpu", 0L))
                .thenComparingLong(p -> p.requests().getOrDefault("memory", 0L))
                .reversed());
        for (PodDemand pod : pods) {
            Optional<NodeState> node = current.nodes().stream()
                    .filter(n -> pod.requirement().matches(n) && n.fits(pod.requests()))
                    .findFirst();
            if (node.isEmpty()) return new AdmissionResult.DoesNotFit(insufficientReason(snapshot, demands, pod));
            current = current.with(node.get().plus(pod.requests()));
            placements.add(node.get().name());
        }
        return new AdmissionResult.Fits(current, placements, topology);
    }

    /** Why no node at all can take pods with this requirement, regardless of load; empty when some node can. */
    static Optional<String> unmatchedReason(ClusterSnapshot snapshot, NodeRequirement requirement) {
        List<NodeState> labelled = snapshot.nodes().stream().filter(requirement::labelsMatch).toList();
        if (labelled.isEmpty()) {
            return Optional.of("no node matches flavor " + requirement.flavor() + " nodeLabels " + requirement.describeLabels());
        }
        if (labelled.stream().anyMatch(requirement::matches)) return Optional.empty();
        Taint taint = requirement.untoleratedTaint(labelled.get(0)).orElseThrow();
        return Optional.of("untolerated taint " + NodeRequirement.describe(taint) + " in flavor " + requirement.flavor());
    }

    private static String insufficientReason(ClusterSnapshot snapshot, List<PodDemand> demands, PodDemand failing) {
        NodeRequirement requirement = failing.requirement();
        List<NodeState> matching = snapshot.nodes().stream().filter(requirement::matches).toList();
        Map<String, Long> requested = new TreeMap<>(ResourceAmount.REASON_ORDER);
        for (PodDemand demand : demands) {
            if (!demand.requirement().equals(requirement)) continue;
            demand.requests().forEach((r, a) -> requested.merge(r, a * demand.count(), Long::sum));
        }
        for (var entry : requested.entrySet()) {
            String resource = entry.getKey();
            long free = matching.stream().mapToLong(n -> Math.max(0, n.free(resource))).reduce(0, AttemptAdmission::saturatingAdd);
            if (entry.getValue() > free) {
                return "insufficient " + resource + ": " + ResourceAmount.format(resource, entry.getValue()) + " requested, "
                        + ResourceAmount.format(resource, free) + " free on matching nodes";
            }
        }
        Map<String, Long> perPod = new TreeMap<>(ResourceAmount.REASON_ORDER);
        perPod.putAll(failing.requests());
        for (var entry : perPod.entrySet()) {
            String resource = entry.getKey();
            long largest = matching.stream().mapToLong(n -> Math.max(0, n.free(resource))).max().orElse(0);
            if (entry.getValue() > largest) {
                return "insufficient " + resource + ": " + ResourceAmount.format(resource, entry.getValue())
                        + " requested per pod, at most " + ResourceAmount.format(resource, largest) + " free on one matching node";
            }
        }
        return "insufficient capacity: the pods of pod set " + failing.podSet()
                + " do not fit on the matching nodes together in flavor " + requirement.flavor();
    }

    private static long saturatingAdd(long a, long b) {
        long sum = a + b;
        return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
    }
}
