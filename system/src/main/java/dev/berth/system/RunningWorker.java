package dev.berth.system;

import dev.berth.agent.Agent;
import dev.berth.virtualcluster.VirtualClusterProcess;
import io.fabric8.kubernetes.client.KubernetesClient;

/** One worker cluster of a running system: the virtual cluster's process, a client to it, and its agent. */
public record RunningWorker(WorkerClusterSpec spec, VirtualClusterProcess cluster, KubernetesClient client, Agent agent, int agentPort) {
    public String name() {
        return spec.name();
    }
}
