package dev.berth.virtualcluster;

import dev.berth.protocol.Labels;
import dev.berth.protocol.ResourceNames;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A group of identical nodes of a virtual cluster: {@code gpusPerNode} GPUs of {@code product} each,
 * or CPU-only nodes when {@code product} is null; with a {@link PoolTopology} (null when none) the nodes
 * carry block and rack labels.
 */
public record NodePool(String alias, String product, String instanceType, int nodes, int gpusPerNode, PoolTopology topology) {

    public NodePool(String alias, String product, String instanceType, int nodes, int gpusPerNode) {
        this(alias, product, instanceType, nodes, gpusPerNode, null);
    }

    public static final String GPU_COUNT_LABEL = "nvidia.com/gpu.count";
    public static final String INSTANCE_TYPE_LABEL = "node.kubernetes.io/instance-type";
    public static final String LIFECYCLE_LABEL = "node-lifecycle";
    public static final String GPU_TAINT_KEY = ResourceNames.GPU;
    public static final String GPU_TAINT_VALUE = "present";

    public boolean hasGpus() {
        return product != null;
    }

    /** The Node objects of this pool, named {@code <cluster>-<alias>-<index>}. */
    public List<Node> toNodes(String clusterName, boolean spot) {
        List<Node> result = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
            String name = clusterName + "-" + alias + "-" + i;
            result.add(new NodeBuilder()
                .withNewMetadata().withName(name).withLabels(labels(name, i, spot)).endMetadata()
                .withNewSpec().withTaints(taints()).endSpec()
                .withNewStatus()
                    .withCapacity(allocatable()).withAllocatable(allocatable())
                    .addNewCondition().withType("Ready").withStatus("True").withReason("KubeletReady").endCondition()
                .endStatus()
                .build());
        }
        return result;
    }

    private Map<String, String> labels(String nodeName, int index, boolean spot) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("kubernetes.io/hostname", nodeName);
        if (topology != null) {
            labels.putAll(topology.labels(index));
        }
        labels.put("kubernetes.io/os", "linux");
        labels.put("kubernetes.io/arch", "amd64");
        labels.put(INSTANCE_TYPE_LABEL, instanceType);
        if (hasGpus()) {
            labels.put(Labels.GPU_PRODUCT, product);
            labels.put(GPU_COUNT_LABEL, Integer.toString(gpusPerNode));
        }
        if (spot) {
            labels.put(LIFECYCLE_LABEL, "spot");
        }
        return labels;
    }

    private List<Taint> taints() {
        if (!hasGpus()) {
            return List.of();
        }
        return List.of(new TaintBuilder().withKey(GPU_TAINT_KEY).withValue(GPU_TAINT_VALUE).withEffect("NoSchedule").build());
    }

    private Map<String, Quantity> allocatable() {
        Map<String, Quantity> allocatable = new LinkedHashMap<>();
        allocatable.put(ResourceNames.CPU, new Quantity(hasGpus() ? "96" : "32"));
        allocatable.put(ResourceNames.MEMORY, new Quantity(hasGpus() ? "1Ti" : "128Gi"));
        allocatable.put(ResourceNames.PODS, new Quantity("110"));
        if (hasGpus()) {
            allocatable.put(ResourceNames.GPU, new Quantity(Integer.toString(gpusPerNode)));
        }
        return allocatable;
    }
}
