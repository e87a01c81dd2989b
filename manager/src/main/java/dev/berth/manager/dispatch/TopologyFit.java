package dev.berth.manager.dispatch;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Finds the topology domain of one cluster's flavor for a pod set, as Kueue's TAS does inside one
 * cluster but stopping at the domain (the worker assigns nodes): count how many pods of the pod
 * set's shape fit on each node, sum them per domain at each level (with slices, only whole slices
 * inside one slice-level domain count), then
 * <ul>
 *   <li>Required: the fitting domain at the requested level with the least room to spare (BestFit);</li>
 *   <li>Preferred: the same, else one level up, and so on; else spread over the flavor if it holds the pod set;</li>
 *   <li>Unconstrained: the whole flavor if it holds the pod set.</li>
 * </ul>
 * Pure and deterministic: ties go to the domain whose values sort first.
 */
public final class TopologyFit {
    private TopologyFit() {}

    /** A choice, or a shortfall saying why none. */
    public record Outcome(DomainChoice choice, TopologyShortfall shortfall, String problem) {
        public boolean fits() {
            return choice != null;
        }

        /** What to tell a person when it does not fit. */
        public String message() {
            return shortfall != null ? shortfall.message() : problem;
        }
    }

    /** The flavor of the pod set that topology applies to: the one most of its resources are assigned to (first sorted on a tie). */
    public static String flavorOf(PodSetDemand podSet) {
        Map<String, Integer> counts = new TreeMap<>();
        podSet.flavors().values().forEach(f -> counts.merge(f, 1, Integer::sum));
        return counts.entrySet().stream().max(Map.Entry.<String, Integer>comparingByValue()
                .thenComparing(Map.Entry.comparingByKey(java.util.Comparator.reverseOrder()))).map(Map.Entry::getKey).orElse(null);
    }

    public static Outcome place(PodSetDemand podSet, FlavorCapacity capacity) {
        TopologyRequest request = podSet.topology();
        String flavor = capacity.flavor();
        TopologyNodes topology = capacity.topology();
        if (topology == null || topology.levels().isEmpty()) {
            return problem("flavor " + flavor + " reports no topology here, and pod set " + podSet.name() + " asks for one");
        }
        int level = request.mode() == TopologyRequest.Mode.UNCONSTRAINED ? -1 : topology.levels().indexOf(request.level());
        if (request.mode() != TopologyRequest.Mode.UNCONSTRAINED && level < 0) {
            return problem("the topology of flavor " + flavor + " has no level " + request.level());
        }
        int sliceLevel = request.isSliced() ? topology.levels().indexOf(request.sliceLevel()) : -1;
        if (request.isSliced() && sliceLevel < 0) {
            return problem("the topology of flavor " + flavor + " has no level " + request.sliceLevel());
        }
        Map<String, Long> perPod = perPodIn(podSet, flavor);
        long[] fits = podsPerNode(topology, perPod, podSet.count());
        String resource = mainResource(perPod);
        return switch (request.mode()) {
            case REQUIRED -> requiredAt(podSet, flavor, topology, level, sliceLevel, fits, perPod, resource);
            case PREFERRED -> preferredFrom(podSet, flavor, topology, level, sliceLevel, fits, perPod, resource);
            case UNCONSTRAINED -> wholeFlavor(podSet, flavor, topology, sliceLevel, fits, perPod, resource, 0);
        };
    }

    private static Outcome requiredAt(PodSetDemand podSet, String flavor, TopologyNodes topology, int level, int sliceLevel,
                                      long[] fits, Map<String, Long> perPod, String resource) {
        Map<String, Long> domains = domains(topology, level, sliceLevel, fits, podSet.topology().sliceSize());
        Map.Entry<String, Long> tightest = tightest(domains, podSet.count());
        if (tightest != null) return chosen(podSet, flavor, topology, level, tightest, 0);
        return new Outcome(null, shortfall(podSet, flavor, topology.levels().get(level), domains, perPod, resource), null);
    }

    private static Outcome preferredFrom(PodSetDemand podSet, String flavor, TopologyNodes topology, int level, int sliceLevel,
                                         long[] fits, Map<String, Long> perPod, String resource) {
        Map<String, Long> requested = null;
        for (int at = level; at >= 0; at--) {
            Map<String, Long> domains = domains(topology, at, sliceLevel, fits, podSet.topology().sliceSize());
            if (requested == null) requested = domains;
            Map.Entry<String, Long> tightest = tightest(domains, podSet.count());
            if (tightest != null) return chosen(podSet, flavor, topology, at, tightest, level - at);
        }
        Outcome spread = wholeFlavor(podSet, flavor, topology, sliceLevel, fits, perPod, resource, level + 1);
        if (spread.fits()) return spread;
        return new Outcome(null, shortfall(podSet, flavor, topology.levels().get(level), requested, perPod, resource), null);
    }

    private static Outcome wholeFlavor(PodSetDemand podSet, String flavor, TopologyNodes topology, int sliceLevel, long[] fits,
                                       Map<String, Long> perPod, String resource, int levelsUp) {
        long total = domains(topology, -1, sliceLevel, fits, podSet.topology().sliceSize()).getOrDefault("", 0L);
        if (total >= podSet.count()) {
            return new Outcome(new DomainChoice(podSet.name(), flavor, podSet.topology(), topology.levels(), null, List.of(), levelsUp,
                    total, total - podSet.count()), null, null);
        }
        long per = perPod.getOrDefault(resource, 0L);
        return new Outcome(null, new TopologyShortfall(podSet.name(), flavor, null, podSet.count(), resource,
                per * podSet.count(), List.of(), total, total * per), null);
    }

    private static Outcome chosen(PodSetDemand podSet, String flavor, TopologyNodes topology, int level, Map.Entry<String, Long> domain,
                                  int levelsUp) {
        return new Outcome(new DomainChoice(podSet.name(), flavor, podSet.topology(), topology.levels(), topology.levels().get(level),
                List.of(domain.getKey().split("/")), levelsUp, domain.getValue(), domain.getValue() - podSet.count()), null, null);
    }

    private static Outcome problem(String message) {
        return new Outcome(null, null, message);
    }

    /** The fitting domain with the least room (Kueue's BestFit), the first sorted on a tie; null when none fits. */
    private static Map.Entry<String, Long> tightest(Map<String, Long> domains, int count) {
        Map.Entry<String, Long> best = null;
        for (Map.Entry<String, Long> domain : domains.entrySet()) {
            if (domain.getValue() < count) continue;
            if (best == null || domain.getValue() < best.getValue()
                    || (domain.getValue().equals(best.getValue()) && domain.getKey().compareTo(best.getKey()) < 0)) {
                best = domain;
            }
        }
        return best;
    }

    private static TopologyShortfall shortfall(PodSetDemand podSet, String flavor, String level, Map<String, Long> domains,
                                               Map<String, Long> perPod, String resource) {
        Map.Entry<String, Long> best = null;
        for (Map.Entry<String, Long> domain : domains.entrySet()) {
            if (best == null || domain.getValue() > best.getValue()
                    || (domain.getValue().equals(best.getValue()) && domain.getKey().compareTo(best.getKey()) < 0)) {
                best = domain;
            }
        }
        long per = perPod.getOrDefault(resource, 0L);
        List<String> bestDomain = best == null ? List.of() : List.of(best.getKey().split("/"));
        long bestFits = best == null ? 0 : best.getValue();
        return new TopologyShortfall(podSet.name(), flavor, level, podSet.count(), resource, per * podSet.count(), bestDomain,
                bestFits, bestFits * per);
    }

    /**
     * Pods that fit per domain at {@code level} (-1: the whole flavor, key ""), keyed by the domain's
     * values joined with "/" (label values never hold a slash). With slices, each slice-level domain
     * contributes only whole slices.
     */
    static Map<String, Long> domains(TopologyNodes topology, int level, int sliceLevel, long[] fits, int sliceSize) {
        boolean sliced = sliceLevel >= 0 && sliceSize > 0 && sliceLevel >= level;
        int sumAt = sliced ? sliceLevel : level;
        Map<String, Long> sums = new HashMap<>();
        List<TopologyNodes.Node> nodes = topology.nodes();
        for (int i = 0; i < nodes.size(); i++) {
            if (fits[i] == 0) continue;
            sums.merge(key(nodes.get(i).values(), sumAt), fits[i], Long::sum);
        }
        if (!sliced) return sums;
        Map<String, Long> domains = new HashMap<>();
        for (Map.Entry<String, Long> slice : sums.entrySet()) {
            long whole = slice.getValue() / sliceSize * sliceSize;
            if (whole > 0) domains.merge(prefix(slice.getKey(), level), whole, Long::sum);
        }
        return domains;
    }

    private static String key(List<String> values, int level) {
        if (level < 0) return "";
        if (level == 0) return values.get(0);
        StringBuilder key = new StringBuilder(values.get(0));
        for (int i = 1; i <= level && i < values.size(); i++) key.append('/').append(values.get(i));
        return key.toString();
    }

    private static String prefix(String key, int level) {
        if (level < 0) return "";
        int at = -1;
        for (int i = 0; i <= level; i++) {
            at = key.indexOf('/', at + 1);
            if (at < 0) return key;
        }
        return key.substring(0, at);
    }

    /** How many pods of the shape fit on each node (capped at the pod count: more cannot be used). */
    static long[] podsPerNode(TopologyNodes topology, Map<String, Long> perPod, int count) {
        long[] fits = new long[topology.nodes().size()];
        for (int i = 0; i < fits.length; i++) {
            TopologyNodes.Node node = topology.nodes().get(i);
            long fit = count;
            for (Map.Entry<String, Long> request : perPod.entrySet()) {
                fit = Math.min(fit, node.free(request.getKey()) / request.getValue());
            }
            fits[i] = Math.max(0, fit);
        }
        return fits;
    }

    private static Map<String, Long> perPodIn(PodSetDemand podSet, String flavor) {
        Map<String, Long> perPod = new TreeMap<>();
        podSet.perPodRequests().forEach((resource, amount) -> {
            if (amount > 0 && flavor.equals(podSet.flavors().get(resource))) perPod.put(resource, amount);
        });
        return perPod;
    }

    /** The resource a person thinks of: an extended resource (nvidia.com/gpu) when the pod asks for one, else cpu. */
    static String mainResource(Map<String, Long> perPod) {
        List<String> extended = new ArrayList<>();
        for (String resource : perPod.keySet()) if (resource.contains("/")) extended.add(resource);
        if (!extended.isEmpty()) return extended.get(0);
        if (perPod.containsKey("cpu")) return "cpu";
        return perPod.isEmpty() ? "cpu" : perPod.keySet().iterator().next();
    }
}
