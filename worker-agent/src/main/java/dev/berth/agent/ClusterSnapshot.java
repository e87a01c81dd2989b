package dev.berth.agent;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/** The nodes of a cluster with what the non-terminated pods bound to them use. Immutable. */
public record ClusterSnapshot(List<NodeState> nodes) {
    public ClusterSnapshot {
        nodes = List.copyOf(nodes);
    }

    /** Builds a snapshot from the API's nodes and pods; unschedulable (cordoned) nodes are left out. */
    public static ClusterSnapshot of(List<Node> nodes, List<Pod> pods) {
        return of(nodes, pods, ClusterSnapshot::requestsOf);
    }

    /** As {@link #of(List, List)}, with each pod's requests from {@code requests} (see {@link PodRequests}). */
    public static ClusterSnapshot of(List<Node> nodes, List<Pod> pods, Function<Pod, Map<String, Long>> requests) {
        Map<String, Map<String, Long>> usedByNode = new HashMap<>();
        for (Pod pod : pods) {
            String nodeName = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
            if (nodeName == null || isTerminated(pod)) continue;
            Map<String, Long> used = usedByNode.computeIfAbsent(nodeName, n -> new HashMap<>());
            requests.apply(pod).forEach((resource, amount) -> used.merge(resource, amount, Long::sum));
        }
        List<NodeState> states = new ArrayList<>();
        for (Node node : nodes) {
            if (node.getSpec() != null && Boolean.TRUE.equals(node.getSpec().getUnschedulable())) continue;
            String name = node.getMetadata().getName();
            Map<String, Long> allocatable = new HashMap<>();
            Map<String, Quantity> source = node.getStatus() == null ? null
                    : Objects.requireNonNullElse(node.getStatus().getAllocatable(), node.getStatus().getCapacity());
            if (source != null) source.forEach((resource, q) -> allocatable.put(resource, ResourceAmount.parse(resource, q)));
            states.add(new NodeState(name,
                    Objects.requireNonNullElse(node.getMetadata().getLabels(), Map.of()),
                    node.getSpec() == null || node.getSpec().getTaints() == null ? List.of() : node.getSpec().getTaints(),
                    allocatable, usedByNode.getOrDefault(name, Map.of())));
        }
        states.sort(Comparator.comparing(NodeState::name));
        return new ClusterSnapshot(states);
    }

    public static boolean isTerminated(Pod pod) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        return "Succeeded".equals(phase) || "Failed".equals(phase);
    }

    /** A pod's requests: the sum over its containers (init containers: the largest, when larger), plus one pod. */
    public static Map<String, Long> requestsOf(Pod pod) {
        Map<String, Long> total = new HashMap<>();
        if (pod.getSpec() != null) {
            for (Container container : pod.getSpec().getContainers()) {
                requestsOf(container).forEach((r, a) -> total.merge(r, a, Long::sum));
            }
            for (Container init : pod.getSpec().getInitContainers()) {
                requestsOf(init).forEach((r, a) -> total.merge(r, a, Math::max));
            }
        }
        total.put("pods", 1L);
        return total;
    }

    private static Map<String, Long> requestsOf(Container container) {
        Map<String, Long> requests = new HashMap<>();
        if (container.getResources() == null) return requests;
        Map<String, Quantity> source = container.getResources().getRequests();
        if (source == null || source.isEmpty()) source = container.getResources().getLimits();
        if (source != null) source.forEach((r, q) -> requests.put(r, ResourceAmount.parse(r, q)));
        return requests;
    }

    /** This snapshot with one node replaced. */
    public ClusterSnapshot with(NodeState replacement) {
        List<NodeState> next = new ArrayList<>(nodes.size());
        for (NodeState node : nodes) next.add(node.name().equals(replacement.name()) ? replacement : node);
        return new ClusterSnapshot(next);
    }
}
