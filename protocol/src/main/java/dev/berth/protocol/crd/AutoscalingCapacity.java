package dev.berth.protocol.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A flavor's capacity on request: the cluster can add up to {@code maxNodes - currentNodes} more nodes
 * of this flavor, each with {@code nodeAllocatable}, through an autoscaling.x-k8s.io ProvisioningRequest
 * of {@code provisioningClassName}. Reported by the agent in {@link CapacityReport.FlavorCapacity#getAutoscaling()}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class AutoscalingCapacity {
    /** The most nodes of this flavor the cluster may have (current ones included). */
    private int maxNodes;
    /** What one added node offers, per resource (Kubernetes quantities). */
    private Map<String, String> nodeAllocatable = new LinkedHashMap<>();
    /** The provisioning class the cluster's autoscaler serves, e.g. check-capacity.autoscaling.x-k8s.io. */
    private String provisioningClassName;

    public int getMaxNodes() { return maxNodes; }
    public void setMaxNodes(int maxNodes) { this.maxNodes = maxNodes; }
    public Map<String, String> getNodeAllocatable() { return nodeAllocatable; }
    public void setNodeAllocatable(Map<String, String> nodeAllocatable) { this.nodeAllocatable = nodeAllocatable; }
    public String getProvisioningClassName() { return provisioningClassName; }
    public void setProvisioningClassName(String provisioningClassName) { this.provisioningClassName = provisioningClassName; }
}
