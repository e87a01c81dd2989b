package dev.berth.manager.core;

import static dev.berth.manager.testing.Fixtures.localQueue;

import dev.berth.manager.model.ClusterQueueSpec;
import dev.berth.manager.model.CohortSpec;
import dev.berth.manager.model.ResourceFlavor;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.model.WorkloadRequest;
import dev.berth.manager.testing.Fixtures;
import dev.berth.manager.testing.Fixtures.ClusterQueueBuilder;
import dev.berth.manager.testing.Fixtures.WorkloadBuilder;
import dev.berth.manager.testing.MutableClock;
import dev.berth.manager.testing.RecordingSink;
import dev.berth.protocol.Conditions;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * One semantics scenario: a controller, the sink it writes to and a clock that moves one second
 * per submission. Every ClusterQueue applied through {@link #cq} gets a LocalQueue {@code lq} in the
 * namespace of the same name, so {@code workload("team-a", "w")} lands in ClusterQueue team-a.
 */
final class Scenario {
    final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    final RecordingSink sink = new RecordingSink();
    /** The workloads whose copy runs on a worker cluster, as dispatch would tell the controller; empty unless a row adds some. */
    final Set<WorkloadKey> remotelyRunning = new HashSet<>();
    final AdmissionController controller;
    private long created = 1;

    Scenario() {
        this(SchedulerOptions.DEFAULTS);
    }

    Scenario(SchedulerOptions options) {
        controller = new AdmissionController(clock, options, sink, remotelyRunning::contains);
    }

    /** A named behaviour: the row of a table test. */
    record Row(String name, SchedulerOptions options, Consumer<Scenario> check) {
        @Override
        public String toString() {
            return name;
        }

        /** Runs the row against a fresh controller. */
        void run() {
            check.accept(new Scenario(options));
        }
    }

    static Row row(String name, Consumer<Scenario> check) {
        return new Row(name, SchedulerOptions.DEFAULTS, check);
    }

    static Row row(String name, SchedulerOptions options, Consumer<Scenario> check) {
        return new Row(name, options, check);
    }

    Scenario flavors(String... names) {
        for (String name : names) controller.applyResourceFlavor(ResourceFlavor.named(name));
        return this;
    }

    Scenario flavor(ResourceFlavor flavor) {
        controller.applyResourceFlavor(flavor);
        return this;
    }

    Scenario cq(ClusterQueueBuilder queue) {
        ClusterQueueSpec spec = queue.build();
        controller.applyClusterQueue(spec);
        controller.applyLocalQueue(localQueue(spec.name(), "lq", spec.name()));
        return this;
    }

    Scenario cohort(CohortSpec cohort) {
        controller.applyCohort(cohort);
        return this;
    }

    /** A workload builder whose creation time is later than every earlier one's. */
    WorkloadBuilder w(String namespace, String name) {
        return Fixtures.workload(namespace, name).createdAt(clock.millis() + created++);
    }

    Scenario submit(WorkloadBuilder workload) {
        return submit(workload.build());
    }

    Scenario submit(WorkloadRequest request) {
        clock.advance(Duration.ofSeconds(1));
        controller.submit(request, true, null);
        return this;
    }

    /** Submits and schedules, so the workload is admitted (if it can be) before the next one arrives. */
    Scenario run(WorkloadBuilder workload) {
        submit(workload);
        schedule();
        return this;
    }

    CycleReport schedule() {
        clock.advance(Duration.ofSeconds(1));
        return controller.schedule();
    }

    Scenario finish(String key) {
        controller.finish(key(key), true, null, null);
        return this;
    }

    static WorkloadKey key(String key) {
        String[] parts = key.split("/");
        return WorkloadKey.of(parts[0], parts[1]);
    }

    WorkloadStatus status(String key) {
        return sink.workloads.get(key(key));
    }

    boolean admitted(String key) {
        WorkloadStatus status = status(key);
        return status != null && status.isTrue(Conditions.ADMITTED);
    }

    boolean reserved(String key) {
        WorkloadStatus status = status(key);
        return status != null && status.isTrue(Conditions.QUOTA_RESERVED);
    }

    boolean evicted(String key) {
        WorkloadStatus status = status(key);
        return status != null && status.isTrue(Conditions.EVICTED);
    }

    /** The reason of the workload's last preemption, even when it has since been admitted again (null if never preempted). */
    String preemptedFor(String key) {
        java.util.List<String> reasons = sink.preemptions.get(key(key));
        return reasons == null ? null : reasons.get(reasons.size() - 1);
    }

    Condition condition(String key, String type) {
        return status(key).condition(type);
    }

    /** The QuotaReserved=False message: why the workload is pending. */
    String pendingMessage(String key) {
        Condition reserved = condition(key, Conditions.QUOTA_RESERVED);
        return reserved == null || reserved.status() ? null : reserved.message();
    }

    /** The flavor assigned to a resource of a pod set (the first when podSet is null). */
    String flavorOf(String key, String resource) {
        return status(key).admission().podSetAssignments().get(0).flavors().get(resource);
    }

    String flavorOf(String key, String podSet, String resource) {
        return status(key).admission().podSetAssignments().stream()
                .filter(a -> a.name().equals(podSet)).findFirst().orElseThrow().flavors().get(resource);
    }

    long usage(String clusterQueue, String flavorResource) {
        return controller.usageOf(clusterQueue).getOrDefault(flavorResource, 0L);
    }

    Map<String, Long> usage(String clusterQueue) {
        return controller.usageOf(clusterQueue);
    }

    QueueStatus queueStatus(String clusterQueue) {
        return sink.clusterQueues.get(clusterQueue);
    }

    QueueStatus localQueueStatus(String namespace) {
        return sink.localQueues.get(namespace + "/lq");
    }

    /** The (total, borrowed) of a flavor-resource in a queue status list. */
    static FlavorUsage.ResourceUsage find(java.util.List<FlavorUsage> usages, String flavor, String resource) {
        for (FlavorUsage usage : usages) {
            if (!usage.flavor().equals(flavor)) continue;
            for (FlavorUsage.ResourceUsage r : usage.resources()) if (r.resource().equals(resource)) return r;
        }
        return null;
    }
}
