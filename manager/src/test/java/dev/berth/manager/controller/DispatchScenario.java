package dev.berth.manager.controller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.clusters.FakeWorkerCluster;
import dev.berth.manager.dispatch.DispatchAttempt;
import dev.berth.manager.dispatch.DispatchHistoryEntry;
import dev.berth.manager.dispatch.DispatchHold;
import dev.berth.manager.dispatch.DispatchStatus;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.objects.DispatchStatusJson;
import dev.berth.manager.store.MemoryObjectStore;
import dev.berth.manager.store.ObjectKey;
import dev.berth.manager.store.StoredObject;
import dev.berth.manager.testing.DispatchQueues;
import dev.berth.manager.testing.KueueObjects;
import dev.berth.manager.testing.MultiKueueObjects;
import dev.berth.manager.testing.MutableClock;
import dev.berth.protocol.Annotations;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * One dispatch scenario: worker clusters ({@link FakeWorkerCluster}), the manager's real dispatch logic over the
 * real memory store and AdmissionController ({@link ScenarioManager}), and a clock that only the scenario moves.
 * A row reads given / events / then:
 * <pre>
 * row("failover.md: Leases and fencing", "a renewal that fails is retried at the next poll", s -> {
 *     s.clusters("a").start();                               // given
 *     s.submit("job-1", 2); s.cluster("a").renewalsFail(true); s.advance(Duration.ofSeconds(21));  // events
 *     assertThat(s.verbs("a", "job-1")).containsSubsequence("create", "renew", "renew");          // then
 * })
 * </pre>
 * Jobs are submitted in team-a to LocalQueue lq, ClusterQueue cq (64 GPUs of a100 unless told) with the
 * MultiKueue check "dispatch" over MultiKueueConfig "workers", which lists the scenario's clusters in order.
 */
final class DispatchScenario {
    static final Instant START = Instant.parse("2026-12-02T00:00:00Z");
    static final String NAMESPACE = DispatchQueues.NAMESPACE;

    /** One row of a table: the docs/failover.md rule it checks, the behaviour, and the scenario. */
    record Row(String rule, String behaviour, Consumer<DispatchScenario> play) {
        void run() {
            play.accept(new DispatchScenario());
        }

        @Override
        public String toString() {
            return behaviour + " [" + rule + "]";
        }
    }

    static Row row(String rule, String behaviour, Consumer<DispatchScenario> play) {
        return new Row(rule, behaviour, play);
    }

    final MutableClock clock = new MutableClock(START);
    final MemoryObjectStore store = new MemoryObjectStore(clock);
    private final Map<String, FakeWorkerCluster> workers = new LinkedHashMap<>();
    private DispatchOptions options = DispatchOptions.DEFAULTS;
    private String strategy;
    private int gpuQuota = 64;
    ScenarioManager manager;
    private Instant lastPoll = START;
    private Instant lastRenewal = START;

    // ---- given ------------------------------------------------------------------------------------

    DispatchScenario clusters(String... names) {
        for (String name : names) workers.put(name, new FakeWorkerCluster(name, clock));
        return this;
    }

    DispatchScenario options(UnaryOperator<DispatchOptions> change) {
        options = change.apply(options);
        return this;
    }

    /**
     * The drills' settings (ManagerFlags.FAILOVER): workerLostTimeout 10 s, lease 6 s, margin 1 s, contact grace and
     * agent lost after 4 s, heartbeat late after 3 s, stale after 4 s, calls of 1.5 s tried twice.
     */
    DispatchScenario drillSettings() {
        return options(o -> new DispatchOptions(o.managerId(), Duration.ofSeconds(6), o.pollInterval(),
                new dev.berth.manager.dispatch.PlacementOptions(Duration.ofSeconds(4), Duration.ofMinutes(5)),
                new dev.berth.manager.dispatch.FailoverOptions(Duration.ofSeconds(10), Duration.ofSeconds(1),
                        new dev.berth.manager.dispatch.HealthOptions(Duration.ofSeconds(4), Duration.ofSeconds(3), Duration.ofSeconds(4))),
                new dev.berth.manager.clusters.ResilienceOptions(Duration.ofMillis(1500), 2, Duration.ofMillis(200), 50f, 10,
                        Duration.ofSeconds(3), 8),
                o.workQueue(), o.unservedFlavors(), o.startTimeout()));
    }

    /** The MultiKueueConfig's berth.dev/dispatch-strategy (AllAtOnce, Incremental, External). */
    DispatchScenario strategy(String name) {
        strategy = name;
        return this;
    }

    DispatchScenario gpuQuota(int gpus) {
        gpuQuota = gpus;
        return this;
    }

    /** Starts the manager, creates the queues through its API, connects the clusters, and lets it settle. */
    DispatchScenario start() {
        manager = ScenarioManager.start(store, clock, options);
        ObjectNode config = MultiKueueObjects.multiKueueConfig("workers", workers.keySet().toArray(String[]::new)).json();
        if (strategy != null) config.with("metadata").with("annotations").put(Annotations.DISPATCH_STRATEGY, strategy);
        create(KueueObjects.namespace(NAMESPACE).json());
        create(KueueObjects.resourceFlavor(DispatchQueues.FLAVOR).nodeLabel("nvidia.com/gpu.product", "NVIDIA-A100-SXM4-40GB").json());
        create(config);
        create(MultiKueueObjects.multiKueueCheck(DispatchQueues.CHECK, "workers").json());
        create(KueueObjects.clusterQueue(DispatchQueues.CLUSTER_QUEUE).quota(DispatchQueues.FLAVOR, "cpu", 64)
                .quota(DispatchQueues.FLAVOR, "nvidia.com/gpu", gpuQuota).admissionCheck(DispatchQueues.CHECK).json());
        create(KueueObjects.localQueue(NAMESPACE, DispatchQueues.LOCAL_QUEUE).clusterQueue(DispatchQueues.CLUSTER_QUEUE).json());
        connectClusters();
        return this;
    }

    private void connectClusters() {
        manager.onStateThread(() -> workers.values().forEach(w -> w.connectTo(manager.clusters)));
    }

    private void create(ObjectNode object) {
        manager.onStateThread(() -> manager.api.createAll(List.of(object)));
    }

    // ---- events -----------------------------------------------------------------------------------

    /** A Job of one pod asking gpus GPUs, through the API as kubectl would create it; admitted and dispatched as in production. */
    DispatchScenario submit(String job, int gpus) {
        create(DispatchQueues.job(job, 1, gpus).json());
        return this;
    }

    /** As {@link #submit}, the Job annotated berth.dev/lease-duration (docs/failover.md: longer leases by annotation). */
    DispatchScenario submitWithLease(String job, int gpus, String lease) {
        create(DispatchQueues.job(job, 1, gpus).annotation(Annotations.LEASE_DURATION, lease).json());
        return this;
    }

    /** The clock moves by step of one poll interval; the agents beat, and the manager's timers fire as they come due. */
    DispatchScenario advance(Duration duration) {
        Duration step = options.pollInterval();
        Instant until = clock.instant().plus(duration);
        while (clock.instant().isBefore(until)) {
            clock.advance(step);
            workers.values().forEach(FakeWorkerCluster::beat);
            manager.housekeeping();
            if (!clock.instant().isBefore(lastPoll.plus(options.pollInterval()))) {
                lastPoll = clock.instant();
                manager.poll();
            }
            if (!clock.instant().isBefore(lastRenewal.plus(options.renewEvery()))) {
                lastRenewal = clock.instant();
                manager.renewLeases();
            }
        }
        return this;
    }

    /** One poll of every cluster now, without moving the clock. */
    DispatchScenario poll() {
        manager.poll();
        return this;
    }

    /** The agent on a cluster reports the job's copy in a phase (and reason); the manager sees it at its next poll. */
    DispatchScenario report(String cluster, String job, String phase, String reason) {
        cluster(cluster).report(workload(job), phase, reason);
        return this;
    }

    DispatchScenario report(String cluster, String job, String phase) {
        return report(cluster, job, phase, null);
    }

    /** The leader dies and another takes office over the same store (a restart is the same): epoch + 1, state recovered. */
    DispatchScenario newLeader() {
        manager = ScenarioManager.start(store, clock, options);
        connectClusters();
        return this;
    }

    /** kubectl patch workload --type=merge -p '{"spec":{"active":false}}': deactivates it (Kueue's eviction reason Deactivated). */
    DispatchScenario deactivate(String job) {
        ObjectNode patch = new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode();
        patch.putObject("spec").put("active", false);
        manager.onStateThread(() -> manager.api.mergePatch(dev.berth.manager.api.ResourcePath.collection(Resources.WORKLOADS, "v1beta2", NAMESPACE)
                .named(workload(job)), patch));
        return this;
    }

    /**
     * An outside controller (the External strategy's dispatcher) sets the Workload's status.nominatedClusterNames,
     * as kubectl patch --subresource=status --type=merge would; an empty list clears the nomination.
     */
    DispatchScenario nominate(String job, String... clusters) {
        ObjectNode patch = new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode();
        var names = patch.putObject("status").putArray("nominatedClusterNames");
        for (String cluster : clusters) names.add(cluster);
        manager.onStateThread(() -> manager.api.mergePatchStatus(dev.berth.manager.api.ResourcePath.collection(Resources.WORKLOADS, "v1beta2", NAMESPACE)
                .named(workload(job)), patch));
        return this;
    }

    /** The operator annotates the MultiKueueCluster: berth.dev/cordon, berth.dev/drain. */
    DispatchScenario mark(String cluster, boolean cordoned, boolean draining) {
        manager.mark(cluster, cordoned, draining);
        return this;
    }

    // ---- then -------------------------------------------------------------------------------------

    FakeWorkerCluster cluster(String name) {
        return workers.get(name);
    }

    /** The name of the Workload the Job got. */
    String workload(String job) {
        for (StoredObject stored : store.list(Resources.WORKLOADS.resource(), NAMESPACE)) {
            for (JsonNode owner : stored.object().path("metadata").path("ownerReferences")) {
                if (job.equals(owner.path("name").asText())) return stored.key().name();
            }
        }
        throw new AssertionError("no Workload for job " + job);
    }

    WorkloadKey key(String job) {
        return WorkloadKey.of(NAMESPACE, workload(job));
    }

    ObjectNode workloadObject(String job) {
        return store.get(new ObjectKey(Resources.WORKLOADS.resource(), NAMESPACE, workload(job))).map(StoredObject::object).orElseThrow();
    }

    /** status.dispatch, or null. */
    DispatchStatus dispatch(String job) {
        return DispatchStatusJson.dispatchOf(workloadObject(job).path("status"));
    }

    List<DispatchHold> holds(String job) {
        return DispatchStatusJson.holdsOf(workloadObject(job).path("status"));
    }

    List<DispatchHistoryEntry> history(String job) {
        return DispatchStatusJson.historyOf(workloadObject(job).path("status"));
    }

    /** The MultiKueue admission check's state: Pending, Ready, Retry, Rejected. */
    String check(String job) {
        return checkNode(job).path("state").asText(null);
    }

    String checkMessage(String job) {
        return checkNode(job).path("message").asText("");
    }

    private JsonNode checkNode(String job) {
        for (JsonNode check : workloadObject(job).path("status").path("admissionChecks")) {
            if (DispatchQueues.CHECK.equals(check.path("name").asText())) return check;
        }
        return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    }

    /** A condition's status ("True", "False") and reason, as "True/Reason"; null when absent. */
    String condition(String job, String type) {
        for (JsonNode condition : workloadObject(job).path("status").path("conditions")) {
            if (type.equals(condition.path("type").asText())) return condition.path("status").asText() + "/" + condition.path("reason").asText();
        }
        return null;
    }

    /** The verbs the manager sent a cluster about the job's Workload, in order. */
    List<String> verbs(String cluster, String job) {
        return cluster(cluster).verbs(workload(job));
    }

    /** The clusters that received a create of the job's Workload, in order (one entry per create). */
    List<String> createdOn(String job) {
        String workload = workload(job);
        List<String> on = new ArrayList<>();
        for (FakeWorkerCluster worker : workers.values()) {
            worker.calls().stream().filter(c -> c.verb().equals("create") && c.workload().equals(workload)).forEach(c -> on.add(worker.name()));
        }
        return on;
    }

    /** The clusters holding a copy of the job's Workload right now. */
    List<String> holding(String job) {
        String workload = workload(job);
        return workers.values().stream().filter(w -> w.holds(workload)).map(FakeWorkerCluster::name).toList();
    }

    /** The attempt the manager holds in memory for the job (the dispatcher's own view), or null. */
    DispatchAttempt attempt(String job) {
        return manager.dispatcher().attempts().get(key(job));
    }
}
