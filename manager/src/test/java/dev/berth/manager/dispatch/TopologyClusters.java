package dev.berth.manager.dispatch;

import dev.berth.manager.model.WorkloadKey;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Fixtures for topology placement: clusters of blocks of racks of nodes, with free GPUs per node. */
public final class TopologyClusters {
    public static final String GPU = "nvidia.com/gpu";
    public static final String BLOCK = "cloud.provider.com/topology-block";
    public static final String RACK = "cloud.provider.com/topology-rack";
    public static final String HOST = "kubernetes.io/hostname";
    static final List<String> LEVELS = List.of(BLOCK, RACK, HOST);

    private final String name;
    private final Map<String, Long> freeByNode = new LinkedHashMap<>();

    private TopologyClusters(String name) {
        this.name = name;
    }

    /** A cluster of blocks × racks × nodes, every node with gpusPerNode free; nodes named b0-r1-n2 in block b0, rack b0-r1. */
    public static TopologyClusters cluster(String name, int blocks, int racks, int nodes, long gpusPerNode) {
        TopologyClusters cluster = new TopologyClusters(name);
        for (int b = 0; b < blocks; b++) {
            for (int r = 0; r < racks; r++) {
                for (int n = 0; n < nodes; n++) cluster.freeByNode.put("b" + b + "-r" + r + "-n" + n, gpusPerNode);
            }
        }
        return cluster;
    }

    /** Sets the free GPUs of one node ("b0-r1-n2"). */
    public TopologyClusters free(String node, long gpus) {
        if (!freeByNode.containsKey(node)) throw new IllegalArgumentException(node);
        freeByNode.put(node, gpus);
        return this;
    }

    /** Sets the free GPUs of every node of a rack ("b0-r1"). */
    public TopologyClusters rackFree(String rack, long gpusPerNode) {
        freeByNode.replaceAll((node, free) -> node.startsWith(rack + "-") ? gpusPerNode : free);
        return this;
    }

    public ClusterView view(Instant heartbeat) {
        List<TopologyNodes.Node> nodes = new ArrayList<>();
        Map<String, Long> free = new HashMap<>();
        long largest = 0;
        for (Map.Entry<String, Long> node : freeByNode.entrySet()) {
            String[] parts = node.getKey().split("-");
            nodes.add(new TopologyNodes.Node(List.of(parts[0], parts[0] + "-" + parts[1], node.getKey()),
                    Map.of(GPU, node.getValue(), "cpu", 64_000L)));
            free.merge(GPU, node.getValue(), Long::sum);
            free.merge("cpu", 64_000L, Long::sum);
            largest = Math.max(largest, node.getValue());
        }
        FlavorCapacity h100 = new FlavorCapacity("h100", free, Map.of(GPU, largest, "cpu", 64_000L),
                new TopologyNodes("default", LEVELS, nodes));
        return new ClusterView(name, true, false, heartbeat, Map.of("h100", h100));
    }

    /** One pod set of `pods` pods with `gpusPerPod` GPUs of flavor h100 and the given topology request (null: none). */
    public static PlacementRequest gang(int pods, long gpusPerPod, TopologyRequest topology) {
        return new PlacementRequest(WorkloadKey.of("team-a", "train"), 0, List.of(new PodSetDemand("main", pods,
                Map.of(GPU, gpusPerPod, "cpu", 1000L), Map.of(GPU, "h100", "cpu", "h100"), topology)));
    }
}
