package dev.berth.virtualcluster;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where the nodes of a pool sit in the data centre: {@code blocks} blocks of {@code racksPerBlock} racks
 * of {@code nodesPerRack} nodes each. Nodes carry the level labels of Kueue's Topology documentation
 * (block, rack; kubernetes.io/hostname is on every node anyway), so a Kueue Topology with these levels
 * describes a virtual cluster. Racks are numbered across the pool (block-1 holds rack-1 and rack-2,
 * block-2 holds rack-3 and rack-4), so a rack's value alone names it.
 */
public record PoolTopology(int blocks, int racksPerBlock, int nodesPerRack) {
    public static final String BLOCK_LABEL = "cloud.provider.com/topology-block";
    public static final String RACK_LABEL = "cloud.provider.com/topology-rack";
    public static final String HOSTNAME_LABEL = "kubernetes.io/hostname";
    /** The Topology levels these labels make, outermost first. */
    public static final List<String> LEVELS = List.of(BLOCK_LABEL, RACK_LABEL, HOSTNAME_LABEL);

    public PoolTopology {
        if (blocks < 1 || racksPerBlock < 1 || nodesPerRack < 1) {
            throw new IllegalArgumentException("a topology needs at least one block, rack and node per rack");
        }
    }

    public int nodes() {
        return blocks * racksPerBlock * nodesPerRack;
    }

    /** The block and rack labels of the pool's node with this index (0-based, in naming order). */
    public Map<String, String> labels(int nodeIndex) {
        int rack = nodeIndex / nodesPerRack;
        int block = rack / racksPerBlock;
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(BLOCK_LABEL, "block-" + (block + 1));
        labels.put(RACK_LABEL, "rack-" + (rack + 1));
        return labels;
    }
}
