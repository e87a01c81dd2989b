package dev.berth.agent;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Each bound pod's requests, parsed once per pod version. Every pass builds its {@link ClusterSnapshot} from every
 * pod in scope, and parsing their quantities again was most of that; a pod's requests change only with its version.
 * A pod not in a snapshot is forgotten. Owned by the reconciler and touched by the agent's thread only.
 */
final class PodRequests {
    private record Parsed(String resourceVersion, Map<String, Long> requests) {}

    private Map<String, Parsed> known = new HashMap<>();

    /** The snapshot of these nodes and pods, as {@link ClusterSnapshot#of(List, List)} builds it. */
    ClusterSnapshot snapshot(List<Node> nodes, List<Pod> pods) {
        Map<String, Parsed> next = new HashMap<>();
        ClusterSnapshot snapshot = ClusterSnapshot.of(nodes, pods, pod -> requestsOf(pod, next));
        known = next;
        return snapshot;
    }

    private Map<String, Long> requestsOf(Pod pod, Map<String, Parsed> next) {
        String uid = pod.getMetadata().getUid();
        String version = pod.getMetadata().getResourceVersion();
        if (uid == null || version == null) return ClusterSnapshot.requestsOf(pod);
        Parsed parsed = known.get(uid);
        if (parsed == null || !version.equals(parsed.resourceVersion())) parsed = new Parsed(version, Map.copyOf(ClusterSnapshot.requestsOf(pod)));
        next.put(uid, parsed);
        return parsed.requests();
    }
}
