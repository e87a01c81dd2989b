package dev.berth.manager.explain;

import dev.berth.manager.core.AdmissionCheckState;
import dev.berth.manager.core.AdmissionDiagnosis;
import dev.berth.manager.core.AdmissionDiagnosis.Queues;
import dev.berth.manager.model.StopPolicy;
import dev.berth.protocol.Conditions.CheckStates;
import dev.berth.protocol.VisibilityApi.Layers;
import dev.berth.protocol.VisibilityApi.Reasons;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Layer 1, the manager's admission: the queues exist and are active, the namespace is selected,
 * the stop policies, the position in the queue, and per pod set and flavor why quota, borrowing or
 * preemption does not make room (see {@link QuotaShortfall}), then the admission checks other than
 * the dispatch check.
 */
final class AdmissionLayer {
    private AdmissionLayer() {}

    static Layer of(AdmissionDiagnosis d, String dispatchCheck) {
        Map<String, Object> details = details(d);
        Queues q = d.queues();
        String ns = d.key().namespace();
        if (d.finished()) return Layer.ok(Layers.ADMISSION, Reasons.FINISHED, "The workload finished.", details);
        if (!d.active()) {
            return Layer.blocked(Layers.ADMISSION, Reasons.INACTIVE_WORKLOAD,
                    "The workload is deactivated (spec.active is false); set it to true to queue it again.", details);
        }
        if (d.holdsQuota()) return reserved(d, dispatchCheck, details);
        if (!q.localQueueExists()) {
            return Layer.blocked(Layers.ADMISSION, Reasons.LOCAL_QUEUE_NOT_FOUND,
                    "LocalQueue " + q.localQueue() + " doesn't exist in namespace " + ns + ".", details);
        }
        if (!q.clusterQueueExists()) {
            return Layer.blocked(Layers.ADMISSION, Reasons.CLUSTER_QUEUE_NOT_FOUND, "LocalQueue " + q.localQueue()
                    + " points to ClusterQueue " + q.clusterQueue() + ", which doesn't exist.", details);
        }
        if (q.localQueueStop() != null && q.localQueueStop().stopsAdmission()) {
            return Layer.blocked(Layers.ADMISSION, Reasons.LOCAL_QUEUE_STOPPED, "LocalQueue " + q.localQueue()
                    + " is stopped (stopPolicy " + wire(q.localQueueStop()) + "): it admits no new workloads.", details);
        }
        if (q.clusterQueueStop() != null && q.clusterQueueStop().stopsAdmission()) {
            return Layer.blocked(Layers.ADMISSION, Reasons.CLUSTER_QUEUE_STOPPED, "ClusterQueue " + q.clusterQueue()
                    + " is stopped (stopPolicy " + wire(q.clusterQueueStop()) + "): it admits no new workloads.", details);
        }
        if (q.inactiveReason() != null) {
            return Layer.blocked(Layers.ADMISSION, Reasons.CLUSTER_QUEUE_INACTIVE, "ClusterQueue " + q.clusterQueue()
                    + " is inactive (" + q.inactiveReason() + "): " + q.inactiveMessage() + ".", details);
        }
        if (!q.namespaceSelected()) {
            return Layer.blocked(Layers.ADMISSION, Reasons.NAMESPACE_NOT_SELECTED, "Namespace " + ns
                    + " is not selected by the namespaceSelector of ClusterQueue " + q.clusterQueue() + ".", details);
        }
        return QuotaShortfall.layer(d, details);
    }

    private static Layer reserved(AdmissionDiagnosis d, String dispatchCheck, Map<String, Object> details) {
        String queue = d.queues().clusterQueue();
        if (d.admitted()) {
            return Layer.ok(Layers.ADMISSION, Reasons.ADMITTED, "Admitted by ClusterQueue " + queue + ".", details);
        }
        List<String> pending = new ArrayList<>();
        for (AdmissionCheckState check : d.checks()) {
            if (check.name().equals(dispatchCheck)) continue;
            String line = check.name() + " is " + check.state() + (check.message() == null || check.message().isBlank() ? "" : " (" + check.message() + ")");
            if (CheckStates.RETRY.equals(check.state()) || CheckStates.REJECTED.equals(check.state())) {
                return Layer.blocked(Layers.ADMISSION, Reasons.ADMISSION_CHECK_FAILED,
                        "Quota is reserved in ClusterQueue " + queue + ", but admission check " + line + ".", details);
            }
            if (!CheckStates.READY.equals(check.state())) pending.add(line);
        }
        if (!pending.isEmpty()) {
            return Layer.waiting(Layers.ADMISSION, Reasons.ADMISSION_CHECK_PENDING, "Quota is reserved in ClusterQueue " + queue
                    + "; waiting for admission check(s): " + String.join(", ", pending) + ".", details);
        }
        return Layer.ok(Layers.ADMISSION, Reasons.QUOTA_RESERVED, "Quota is reserved in ClusterQueue " + queue + ".", details);
    }

    private static String wire(StopPolicy policy) {
        return policy.wireName();
    }

    private static Map<String, Object> details(AdmissionDiagnosis d) {
        Queues q = d.queues();
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("localQueue", q.localQueue());
        details.put("localQueueExists", q.localQueueExists());
        if (q.localQueueStop() != null) details.put("localQueueStopPolicy", wire(q.localQueueStop()));
        if (q.clusterQueue() != null) details.put("clusterQueue", q.clusterQueue());
        details.put("clusterQueueExists", q.clusterQueueExists());
        if (q.clusterQueueStop() != null) details.put("clusterQueueStopPolicy", wire(q.clusterQueueStop()));
        if (q.inactiveReason() != null) details.put("clusterQueueInactive", q.inactiveReason() + ": " + q.inactiveMessage());
        if (q.clusterQueueExists()) details.put("namespaceSelected", q.namespaceSelected());
        if (q.cohort() != null) details.put("cohort", q.cohort());
        if (q.strategy() != null) details.put("queueingStrategy", q.strategy().wireName());
        details.put("priority", d.request().priority());
        if (d.position() != null) {
            details.put("positionInClusterQueue", d.position().inClusterQueue());
            details.put("positionInLocalQueue", d.position().inLocalQueue());
            details.put("pendingInClusterQueue", d.position().pendingInClusterQueue());
        }
        if (d.pendingMessage() != null) details.put("schedulerMessage", d.pendingMessage());
        if (!d.podSets().isEmpty()) details.put("podSets", QuotaShortfall.podSetDetails(d));
        if (d.preemption() != null) {
            Map<String, Object> preemption = new LinkedHashMap<>();
            preemption.put("possible", d.preemption().possible());
            preemption.put("candidates", d.preemption().candidates());
            preemption.put("targets", d.preemption().targets().stream().map(Object::toString).toList());
            preemption.put("blockedBy", d.preemption().blockers());
            details.put("preemption", preemption);
        }
        if (!d.checks().isEmpty()) {
            details.put("admissionChecks", d.checks().stream().map(c -> {
                Map<String, Object> check = new LinkedHashMap<>();
                check.put("name", c.name());
                check.put("state", c.state());
                if (c.message() != null) check.put("message", c.message());
                return check;
            }).toList());
        }
        return details;
    }
}
