package dev.berth.virtualcluster;

import dev.berth.protocol.ResourceNames;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** What a pod asks of a node, as Kubernetes' scheduler counts it, plus one "pods" slot. */
final class PodRequests {
    private PodRequests() {}

    static Map<String, BigDecimal> of(Pod pod) {
        Map<String, BigDecimal> sum = new HashMap<>();
        List<Container> containers = pod.getSpec().getContainers();
        if (containers != null) {
            containers.forEach(c -> requests(c).forEach((r, q) -> sum.merge(r, q, BigDecimal::add)));
        }
        List<Container> initContainers = pod.getSpec().getInitContainers();
        if (initContainers != null) {
            initContainers.forEach(c -> requests(c).forEach((r, q) -> sum.merge(r, q, BigDecimal::max)));
        }
        sum.put(ResourceNames.PODS, BigDecimal.ONE);
        return sum;
    }

    /** A container's requests; a resource with only a limit requests its limit, as the API server defaults it. */
    private static Map<String, BigDecimal> requests(Container container) {
        Map<String, BigDecimal> result = new HashMap<>();
        ResourceRequirements resources = container.getResources();
        if (resources == null) {
            return result;
        }
        if (resources.getLimits() != null) {
            resources.getLimits().forEach((r, q) -> result.put(r, amount(q)));
        }
        if (resources.getRequests() != null) {
            resources.getRequests().forEach((r, q) -> result.put(r, amount(q)));
        }
        return result;
    }

    static BigDecimal amount(Quantity quantity) {
        return Quantity.getAmountInBytes(quantity);
    }
}
