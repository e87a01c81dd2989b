package dev.berth.virtualcluster;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.math.BigDecimal;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Binds pending pods to the first node (by name) that fits them; leaves the others Pending with
 * PodScheduled=False, reason Unschedulable and Kubernetes' "0/N nodes are available" message.
 */
final class PodScheduler {
    private static final Logger LOG = LoggerFactory.getLogger(PodScheduler.class);

    private final KubernetesClient client;
    private final Clock clock;

    PodScheduler(KubernetesClient client, Clock clock) {
        this.client = client;
        this.clock = clock;
    }

    void reconcile() {
        List<Node> nodes = new ArrayList<>(client.nodes().list().getItems());
        nodes.sort(Comparator.comparing(n -> n.getMetadata().getName()));
        List<Pod> pods = client.pods().inAnyNamespace().list().getItems();
        Map<String, Map<String, BigDecimal>> free = freeByNode(nodes, pods);
        pods.stream()
            .filter(p -> p.getSpec().getNodeName() == null && p.getMetadata().getDeletionTimestamp() == null)
            .filter(p -> !PodPhases.isTerminated(p))
            .sorted(Comparator.comparing((Pod p) -> Objects.toString(p.getMetadata().getCreationTimestamp(), ""))
                .thenComparing(p -> p.getMetadata().getName()))
            .forEach(pod -> {
                try {
                    schedule(pod, nodes, free);
                } catch (KubernetesClientException e) {
                    LOG.debug("Could not schedule pod {}/{}: {}", pod.getMetadata().getNamespace(),
                        pod.getMetadata().getName(), e.getMessage());
                }
            });
    }

    private void schedule(Pod pod, List<Node> nodes, Map<String, Map<String, BigDecimal>> free) {
        Map<String, BigDecimal> requests = PodRequests.of(pod);
        Map<String, Integer> reasonCounts = new TreeMap<>();
        for (Node node : nodes) {
            Map<String, BigDecimal> nodeFree = free.get(node.getMetadata().getName());
            List<String> reasons = NodeFit.reasons(pod, requests, node, nodeFree);
            if (reasons.isEmpty()) {
                bind(pod, node.getMetadata().getName());
                requests.forEach((r, q) -> nodeFree.merge(r, q.negate(), BigDecimal::add));
                return;
            }
            reasons.forEach(reason -> reasonCounts.merge(reason, 1, Integer::sum));
        }
        markUnschedulable(pod, unschedulableMessage(nodes.size(), reasonCounts));
    }

    static String unschedulableMessage(int nodeCount, Map<String, Integer> reasonCounts) {
        List<String> parts = new ArrayList<>();
        reasonCounts.forEach((reason, count) -> parts.add(count + " " + reason));
        parts.sort(null);
        return "0/" + nodeCount + " nodes are available: " + String.join(", ", parts) + ".";
    }

    private void bind(Pod pod, String nodeName) {
        String namespace = pod.getMetadata().getNamespace();
        String name = pod.getMetadata().getName();
        client.pods().inNamespace(namespace).withName(name)
            .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"nodeName\":\"" + nodeName + "\"}}");
        setScheduledCondition(namespace, name, new PodConditionBuilder().withType("PodScheduled").withStatus("True")
            .withLastTransitionTime(clock.instant().toString()).build());
        LOG.info("Bound pod {}/{} to node {}", namespace, name, nodeName);
    }

    private void markUnschedulable(Pod pod, String message) {
        PodCondition current = PodPhases.condition(pod, "PodScheduled");
        if (current != null && "False".equals(current.getStatus()) && message.equals(current.getMessage())) {
            return;
        }
        setScheduledCondition(pod.getMetadata().getNamespace(), pod.getMetadata().getName(),
            new PodConditionBuilder().withType("PodScheduled").withStatus("False").withReason("Unschedulable")
                .withMessage(message).withLastTransitionTime(clock.instant().toString()).build());
        LOG.info("Pod {}/{} is unschedulable: {}", pod.getMetadata().getNamespace(), pod.getMetadata().getName(), message);
    }

    private void setScheduledCondition(String namespace, String name, PodCondition condition) {
        client.pods().inNamespace(namespace).withName(name).editStatus(p -> {
            PodStatus status = p.getStatus() == null ? new PodStatus() : p.getStatus();
            if (status.getPhase() == null) {
                status.setPhase(PodPhases.PENDING);
            }
            List<PodCondition> conditions = new ArrayList<>(status.getConditions() == null ? List.of() : status.getConditions());
            conditions.removeIf(c -> condition.getType().equals(c.getType()));
            conditions.add(condition);
            status.setConditions(conditions);
            p.setStatus(status);
            return p;
        });
    }

    /** Allocatable minus the requests of the non-terminated pods bound to each node. */
    static Map<String, Map<String, BigDecimal>> freeByNode(List<Node> nodes, List<Pod> pods) {
        Map<String, Map<String, BigDecimal>> free = new LinkedHashMap<>();
        for (Node node : nodes) {
            Map<String, BigDecimal> allocatable = new HashMap<>();
            if (node.getStatus() != null && node.getStatus().getAllocatable() != null) {
                node.getStatus().getAllocatable().forEach((r, q) -> allocatable.put(r, PodRequests.amount(q)));
            }
            free.put(node.getMetadata().getName(), allocatable);
        }
        for (Pod pod : pods) {
            Map<String, BigDecimal> nodeFree = free.get(pod.getSpec().getNodeName());
            if (nodeFree != null && !PodPhases.isTerminated(pod)) {
                PodRequests.of(pod).forEach((r, q) -> nodeFree.merge(r, q.negate(), BigDecimal::add));
            }
        }
        return free;
    }
}
