package dev.berth.system;

import dev.berth.agent.Agent;
import dev.berth.virtualcluster.VirtualClusterProcess;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * One worker cluster of a running system: the virtual cluster's process, an admin client to it (for tests
 * and the operator), and its agent with the agent's own client.
 */
public record RunningWorker(WorkerClusterSpec spec, VirtualClusterProcess cluster, KubernetesClient client, Agent agent,
                            KubernetesClient agentClient, int agentPort) {
    public String name() {
        return spec.name();
    }
}
