package dev.berth.virtualcluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The node pools of a virtual cluster, parsed from a profile string: comma-separated pools,
 * {@code <gpu>:<nodes>x<gpusPerNode>} for GPU nodes (gpu is a100 or h100) and {@code cpu:<nodes>}
 * for CPU-only nodes. Example: {@code a100:3x8,cpu:2}. A GPU pool may be laid out in blocks and racks
 * ({@link PoolTopology}): {@code <gpu>:<blocks>b<racksPerBlock>r<nodesPerRack>x<gpusPerNode>}, for example
 * {@code h100:2b2r2x8} is 2 blocks of 2 racks of 2 nodes with 8 GPUs each (8 nodes).
 */
public record ClusterProfile(List<NodePool> pools) {

    private record Gpu(String product, String instanceType) {}

    private static final Map<String, Gpu> GPUS = Map.of(
        "a100", new Gpu("NVIDIA-A100-SXM4-40GB", "p4d.24xlarge"),
        "h100", new Gpu("NVIDIA-H100-80GB-HBM3", "p5.48xlarge"));

    private static final Pattern TOPOLOGY = Pattern.compile("(\\d+)b(\\d+)r(\\d+)");

    public ClusterProfile {
        pools = List.copyOf(pools);
    }

    public static ClusterProfile parse(String profile) {
        List<NodePool> pools = new ArrayList<>();
        for (String part : profile.split(",")) {
            pools.add(parsePool(part.trim(), profile));
        }
        return new ClusterProfile(pools);
    }

    private static NodePool parsePool(String pool, String profile) {
        String[] aliasAndSize = pool.split(":");
        if (aliasAndSize.length != 2) {
            throw invalid(profile, "pool '" + pool + "' is not <type>:<size>");
        }
        String alias = aliasAndSize[0].trim().toLowerCase();
        String size = aliasAndSize[1].trim();
        try {
            if (alias.equals("cpu")) {
                return new NodePool("cpu", null, "m5.8xlarge", Integer.parseInt(size), 0);
            }
            Gpu gpu = GPUS.get(alias);
            if (gpu == null) {
                throw invalid(profile, "unknown node type '" + alias + "' (known: a100, h100, cpu)");
            }
            String[] nodesAndGpus = size.split("x");
            if (nodesAndGpus.length != 2) {
                throw invalid(profile, "GPU pool '" + pool + "' is not <type>:<nodes>x<gpusPerNode>"
                    + " or <type>:<blocks>b<racksPerBlock>r<nodesPerRack>x<gpusPerNode>");
            }
            PoolTopology topology = topology(nodesAndGpus[0], pool, profile);
            int nodes = topology == null ? Integer.parseInt(nodesAndGpus[0]) : topology.nodes();
            return new NodePool(alias, gpu.product(), gpu.instanceType(), nodes, Integer.parseInt(nodesAndGpus[1]), topology);
        } catch (NumberFormatException e) {
            throw invalid(profile, "pool '" + pool + "' has a size that is not a number");
        }
    }

    /** {@code 2b2r2}: blocks, racks per block, nodes per rack; null for a plain node count. */
    private static PoolTopology topology(String nodes, String pool, String profile) {
        Matcher matcher = TOPOLOGY.matcher(nodes.trim());
        if (!matcher.matches()) {
            return null;
        }
        try {
            return new PoolTopology(Integer.parseInt(matcher.group(1)), Integer.parseInt(matcher.group(2)),
                Integer.parseInt(matcher.group(3)));
        } catch (IllegalArgumentException e) {
            throw invalid(profile, "pool '" + pool + "': " + e.getMessage());
        }
    }

    private static IllegalArgumentException invalid(String profile, String why) {
        return new IllegalArgumentException("invalid cluster profile '" + profile + "': " + why);
    }
}
