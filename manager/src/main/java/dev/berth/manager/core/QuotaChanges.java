package dev.berth.manager.core;

import dev.berth.manager.model.ClusterQueueSpec;
import dev.berth.manager.model.FlavorQuotas;
import dev.berth.manager.model.PodSetRequest;
import dev.berth.manager.model.ResourceGroup;
import dev.berth.manager.model.ResourceQuota;
import dev.berth.manager.model.WorkloadRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/** The modified copies explain's re-runs decide over: a queue with one quota changed, a request with fewer pods or another priority or queue. */
final class QuotaChanges {
    private QuotaChanges() {}

    /** The queue with the quota of one flavor and resource changed; the same queue when it has none there. */
    static ClusterQueueSpec withQuota(ClusterQueueSpec q, String flavor, String resource, UnaryOperator<ResourceQuota> change) {
        List<ResourceGroup> groups = new ArrayList<>();
        for (ResourceGroup group : q.resourceGroups()) {
            List<FlavorQuotas> flavors = new ArrayList<>();
            for (FlavorQuotas fq : group.flavors()) {
                if (!fq.flavor().equals(flavor)) {
                    flavors.add(fq);
                    continue;
                }
                flavors.add(new FlavorQuotas(fq.flavor(), fq.resources().stream()
                        .map(r -> r.resource().equals(resource) ? change.apply(r) : r).toList()));
            }
            groups.add(new ResourceGroup(group.coveredResources(), flavors));
        }
        return new ClusterQueueSpec(q.name(), q.cohort(), groups, q.queueingStrategy(), q.namespaceSelector(), q.flavorFungibility(),
                q.preemption(), q.admissionChecks(), q.stopPolicy(), q.fairSharingWeight(), q.usageBasedAdmissionFairSharing(), q.terminating());
    }

    static UnaryOperator<ResourceQuota> nominal(long value) {
        return r -> new ResourceQuota(r.resource(), value, r.borrowingLimit(), r.lendingLimit());
    }

    static UnaryOperator<ResourceQuota> borrowingLimit(long value) {
        return r -> new ResourceQuota(r.resource(), r.nominal(), value, r.lendingLimit());
    }

    static UnaryOperator<ResourceQuota> lendingLimit(long value) {
        return r -> new ResourceQuota(r.resource(), r.nominal(), r.borrowingLimit(), value);
    }

    /** The request with pod set {@code index} at {@code count} pods; a minCount above it is dropped. */
    static WorkloadRequest withCount(WorkloadRequest w, int index, int count) {
        List<PodSetRequest> podSets = new ArrayList<>(w.podSets());
        PodSetRequest p = podSets.get(index);
        Integer minCount = p.minCount() != null && p.minCount() <= count ? p.minCount() : null;
        podSets.set(index, new PodSetRequest(p.name(), count, minCount, p.perPodRequests(), p.nodeSelector(),
                p.requiredNodeAffinity(), p.tolerations()));
        return new WorkloadRequest(w.key(), w.queueName(), w.priority(), w.creationMillis(), podSets,
                w.maximumExecutionTimeSeconds(), w.priorityClass());
    }

    static WorkloadRequest withPriority(WorkloadRequest w, String priorityClass, int priority) {
        return new WorkloadRequest(w.key(), w.queueName(), priority, w.creationMillis(), w.podSets(),
                w.maximumExecutionTimeSeconds(), priorityClass);
    }

    static WorkloadRequest withQueue(WorkloadRequest w, String localQueue) {
        return new WorkloadRequest(w.key(), localQueue, w.priority(), w.creationMillis(), w.podSets(),
                w.maximumExecutionTimeSeconds(), w.priorityClass());
    }
}
