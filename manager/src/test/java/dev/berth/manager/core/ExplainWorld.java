package dev.berth.manager.core;

import static dev.berth.manager.testing.Fixtures.localQueue;

import dev.berth.manager.explain.DispatchFacts;
import dev.berth.manager.explain.ExplainScope;
import dev.berth.manager.explain.Explainer;
import dev.berth.manager.explain.WorkloadExplanation;
import dev.berth.manager.model.ClusterQueueSpec;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.model.WorkloadRequest;
import dev.berth.manager.testing.Fixtures.ClusterQueueBuilder;
import dev.berth.manager.testing.Fixtures.WorkloadBuilder;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A {@link Scenario} that remembers the ClusterQueues and workloads it was given, so an explain
 * suggestion can be applied for real (the queue changed through the controller, the workload
 * submitted again) and the scheduler's next cycle says whether it admits.
 */
final class ExplainWorld {
    final Scenario s = new Scenario();
    final Map<String, ClusterQueueSpec> queues = new HashMap<>();
    final Map<WorkloadKey, WorkloadRequest> submitted = new HashMap<>();
    final Map<String, Integer> priorityClasses = new TreeMap<>();
    DispatchFacts facts = DispatchFacts.NONE;

    ExplainWorld flavors(String... names) {
        s.flavors(names);
        return this;
    }

    /** The queue, with LocalQueue lq in the namespace of its name (as {@link Scenario#cq}). */
    ExplainWorld cq(ClusterQueueBuilder builder) {
        ClusterQueueSpec spec = builder.build();
        queues.put(spec.name(), spec);
        s.controller.applyClusterQueue(spec);
        s.controller.applyLocalQueue(localQueue(spec.name(), "lq", spec.name()));
        return this;
    }

    ExplainWorld lq(String namespace, String name, String clusterQueue) {
        s.controller.applyLocalQueue(localQueue(namespace, name, clusterQueue));
        return this;
    }

    ExplainWorld priorityClass(String name, int value) {
        priorityClasses.put(name, value);
        return this;
    }

    WorkloadBuilder w(String namespace, String name) {
        return s.w(namespace, name);
    }

    ExplainWorld run(WorkloadBuilder workload) {
        submit(workload);
        s.schedule();
        return this;
    }

    ExplainWorld submit(WorkloadBuilder workload) {
        WorkloadRequest request = workload.build();
        submitted.put(request.key(), request);
        s.submit(request);
        return this;
    }

    AdmissionAdvice advice(String key) {
        return s.controller.advise(Scenario.key(key), priorityClasses);
    }

    WorkloadExplanation explain(String key, ExplainScope scope) {
        WorkloadKey k = Scenario.key(key);
        return Explainer.explain(s.controller.diagnose(k).orElseThrow(), facts, List.of(), advice(key), scope);
    }

    /** Makes the change the remedy names, through the controller, as an operator or the workload's owner would. */
    void apply(AdmissionRemedy r, String key) {
        WorkloadKey k = Scenario.key(key);
        WorkloadRequest request = submitted.get(k);
        switch (r.kind()) {
            case NOMINAL_QUOTA -> changeQueue(r, QuotaChanges.nominal(r.to()));
            case BORROWING_LIMIT -> changeQueue(r, QuotaChanges.borrowingLimit(r.to()));
            case LENDING_LIMIT -> changeQueue(r, QuotaChanges.lendingLimit(r.to()));
            case POD_COUNT -> resubmit(QuotaChanges.withCount(request, podSetIndex(request, r.podSet()), (int) r.to()));
            case PRIORITY_CLASS -> resubmit(QuotaChanges.withPriority(request, r.priorityClass(), (int) r.to()));
            case LOCAL_QUEUE -> resubmit(QuotaChanges.withQueue(request, r.localQueue()));
        }
    }

    private void changeQueue(AdmissionRemedy r, java.util.function.UnaryOperator<dev.berth.manager.model.ResourceQuota> change) {
        ClusterQueueSpec changed = QuotaChanges.withQuota(queues.get(r.clusterQueue()), r.flavor(), r.resource(), change);
        queues.put(changed.name(), changed);
        s.controller.applyClusterQueue(changed);
    }

    private void resubmit(WorkloadRequest request) {
        s.controller.delete(request.key());
        submitted.put(request.key(), request);
        s.submit(request);
    }

    private static int podSetIndex(WorkloadRequest request, String podSet) {
        for (int i = 0; i < request.podSets().size(); i++) if (request.podSets().get(i).name().equals(podSet)) return i;
        throw new IllegalArgumentException(podSet);
    }

    /** Whether anyone was evicted (a preemption ran) by the last cycle. */
    boolean anyEvicted() {
        return submitted.keySet().stream().anyMatch(k -> s.evicted(k.toString()));
    }
}
