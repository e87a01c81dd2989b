package dev.berth.agent;

import static dev.berth.agent.Fixtures.gpuNode;

import dev.berth.protocol.crd.FlavorDefinition;
import io.fabric8.kubernetes.api.model.Node;
import java.util.ArrayList;
import java.util.List;

/** Nodes and flavors with Kueue's documented topology labels (block, rack, hostname) for the agent's TAS tests. */
final class TopologyFixtures {
    static final String BLOCK = "cloud.provider.com/topology-block";
    static final String RACK = "cloud.provider.com/topology-rack";
    static final String HOSTNAME = "kubernetes.io/hostname";
    static final List<String> LEVELS = List.of(BLOCK, RACK, HOSTNAME);

    private TopologyFixtures() {}

    /** An A100 node with its block, rack and hostname labels. */
    static Node topologyNode(String name, String block, String rack, int gpus) {
        return gpuNode(name, Fixtures.A100, gpus).label(BLOCK, block).label(RACK, rack).label(HOSTNAME, name).build();
    }

    /** {@code blocks} × {@code racks} × {@code nodes} A100 nodes named b1-r1-n1 ..., in blocks b1.. and racks b1-r1.. */
    static List<Node> grid(int blocks, int racks, int nodes, int gpus) {
        List<Node> result = new ArrayList<>();
        for (int b = 1; b <= blocks; b++) {
            for (int r = 1; r <= racks; r++) {
                for (int n = 1; n <= nodes; n++) {
                    result.add(topologyNode("b" + b + "-r" + r + "-n" + n, "b" + b, "b" + b + "-r" + r, gpus));
                }
            }
        }
        return result;
    }

    /** The a100 flavor naming topology "default" with block, rack and hostname levels. */
    static FlavorDefinition a100WithTopology() {
        FlavorDefinition flavor = Fixtures.a100();
        flavor.setTopologyName("default");
        flavor.setTopologyLevels(new ArrayList<>(LEVELS));
        return flavor;
    }
}
