package dev.berth.manager.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.model.AdmissionCheckRule;
import dev.berth.manager.model.ClusterQueueSpec;
import dev.berth.manager.model.FlavorFungibility;
import dev.berth.manager.model.FlavorQuotas;
import dev.berth.manager.model.FlavorResource;
import dev.berth.manager.model.LabelSelector;
import dev.berth.manager.model.LocalQueueSpec;
import dev.berth.manager.model.Preemption;
import dev.berth.manager.model.PreemptionPolicy;
import dev.berth.manager.model.QueueingStrategy;
import dev.berth.manager.model.ResourceFlavor;
import dev.berth.manager.model.ResourceGroup;
import dev.berth.manager.model.ResourceQuota;
import dev.berth.manager.model.StopPolicy;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.testing.Fixtures;
import dev.berth.manager.testing.MutableClock;
import dev.berth.manager.testing.RecordingSink;
import dev.berth.protocol.Conditions;
import dev.berth.protocol.Conditions.CheckStates;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * One random history for {@link AdmissionInvariantsPropertyTest} against a fresh controller: random
 * submissions, finishes, deletions, (de)activations, admission check results and ClusterQueue edits
 * over 2 cohorts of 3 ClusterQueues, with the invariants checked after every step.
 */
final class RandomAdmissionHistory {
    private static final int STEPS = 250;
    private static final String GPU = "nvidia.com/gpu";
    private static final List<String> FLAVORS = List.of("f1", "f2");
    private static final int QUEUES = 6;
    /** Above this many cycles in one schedule() call, workloads are preempting each other in a loop. */
    private static final int CYCLE_BOUND = 1_000;

    private enum Expect { LIVE, FINISHED, DELETED, INACTIVE }

    final Random random;
    final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    final RecordingSink sink = new RecordingSink();
    final List<String> trace = new ArrayList<>();
    final AdmissionController controller;
    final Map<String, ClusterQueueSpec> specs = new LinkedHashMap<>();
    final Map<WorkloadKey, Expect> expected = new LinkedHashMap<>();
    final Map<WorkloadKey, String> queueOf = new HashMap<>();
    /** Workloads admitted before a quota edit of their cohort: they may exceed the new quota until they go. */
    final Set<WorkloadKey> grandfathered = new HashSet<>();
    final List<String> steps = new ArrayList<>();
    int nextName;

    final long seed;

    RandomAdmissionHistory(long seed) {
        this.seed = seed;
        random = new Random(seed);
        SchedulerOptions options = random.nextInt(4) == 0
                ? new SchedulerOptions(true, SchedulerOptions.DEFAULTS.preemptionStrategies(), null)
                : SchedulerOptions.DEFAULTS;
        controller = new AdmissionController(clock, options, new StatusSink() {
            @Override
            public void workloadChanged(WorkloadKey key, boolean active, WorkloadStatus status) {
                sink.workloadChanged(key, active, status);
                trace.add(key + " " + summary(status));
                if (trace.size() > 40) trace.remove(0);
            }

            @Override
            public void clusterQueueChanged(String name, QueueStatus status) {
                sink.clusterQueueChanged(name, status);
            }

            @Override
            public void localQueueChanged(String namespace, String name, QueueStatus status) {
                sink.localQueueChanged(namespace, name, status);
            }

            @Override
            public void workloadExpired(WorkloadKey key) {
                sink.workloadExpired(key);
            }
        });
        steps.add("options " + options);
    }

    void play() {
        for (String flavor : FLAVORS) controller.applyResourceFlavor(ResourceFlavor.named(flavor));
        controller.applyAdmissionCheck("check", true);
        for (int i = 0; i < QUEUES; i++) {
            ClusterQueueSpec spec = randomQueue(i, StopPolicy.NONE);
            specs.put(spec.name(), spec);
            controller.applyClusterQueue(spec);
            controller.applyLocalQueue(new LocalQueueSpec("ns" + i, "lq", spec.name(), StopPolicy.NONE));
            steps.add("queue " + spec);
        }
        for (int step = 0; step < STEPS; step++) {
            clock.advance(Duration.ofSeconds(1));
            randomStep();
            trace.clear();
            CycleReport report = controller.schedule();
            assertThat(report.cycles()).as("schedule() cycles; last writes:\n" + String.join("\n", trace)).isLessThan(CYCLE_BOUND);
            checkInvariants();
        }
    }

    // ---- random configuration -------------------------------------------------------

    ClusterQueueSpec randomQueue(int index, StopPolicy stopPolicy) {
        List<FlavorQuotas> flavors = new ArrayList<>();
        for (String flavor : FLAVORS) {
            long nominal = random.nextInt(7);
            Long borrowing = random.nextInt(3) == 0 ? (long) random.nextInt(5) : null;
            Long lending = random.nextInt(3) == 0 ? (long) random.nextInt((int) nominal + 1) : null;
            flavors.add(new FlavorQuotas(flavor, List.of(new ResourceQuota(GPU, nominal, borrowing, lending))));
        }
        PreemptionPolicy[] within = {PreemptionPolicy.NEVER, PreemptionPolicy.LOWER_PRIORITY, PreemptionPolicy.LOWER_OR_NEWER_EQUAL_PRIORITY};
        PreemptionPolicy[] reclaim = {PreemptionPolicy.NEVER, PreemptionPolicy.LOWER_PRIORITY, PreemptionPolicy.ANY};
        PreemptionPolicy borrowWithin = random.nextBoolean() ? PreemptionPolicy.NEVER : PreemptionPolicy.LOWER_PRIORITY;
        Integer threshold = random.nextBoolean() ? null : random.nextInt(4);
        Preemption preemption = new Preemption(within[random.nextInt(3)], reclaim[random.nextInt(3)], borrowWithin, threshold);
        FlavorFungibility.Policy[] policies = FlavorFungibility.Policy.values();
        FlavorFungibility fungibility = new FlavorFungibility(policies[random.nextInt(2)], policies[random.nextInt(2)],
                random.nextBoolean() ? null : FlavorFungibility.Preference.values()[random.nextInt(2)]);
        List<AdmissionCheckRule> checks = random.nextInt(3) == 0 ? List.of(new AdmissionCheckRule("check", List.of())) : List.of();
        QueueingStrategy strategy = QueueingStrategy.values()[random.nextInt(2)];
        return new ClusterQueueSpec("q" + index, "cohort" + (index / 3), List.of(new ResourceGroup(List.of(GPU), flavors)),
                strategy, LabelSelector.EVERYTHING, fungibility, preemption, checks, stopPolicy, 1 + random.nextInt(2));
    }

    // ---- steps ------------------------------------------------------------------------

    void randomStep() {
        int dice = random.nextInt(100);
        if (dice < 40) submit();
        else if (dice < 55) finish();
        else if (dice < 60) delete();
        else if (dice < 66) toggleActive();
        else if (dice < 80) checkResult();
        else if (dice < 88) editQuota();
        else if (dice < 95) editStopPolicy();
        else editLocalQueueStopPolicy();
    }

    void submit() {
        int queue = random.nextInt(QUEUES);
        String name = "w" + nextName++;
        var builder = Fixtures.workload("ns" + queue, name).queue("lq")
                .priority(random.nextInt(4)).createdAt(clock.millis())
                .request(GPU, String.valueOf(1 + random.nextInt(3))).count(1 + random.nextInt(2));
        if (random.nextInt(5) == 0) builder.podSet("workers").request(GPU, "1").count(1 + random.nextInt(3));
        if (random.nextInt(6) == 0) builder.count(4).minCount(1 + random.nextInt(3));
        var request = builder.build();
        controller.submit(request, true, null);
        expected.put(request.key(), Expect.LIVE);
        queueOf.put(request.key(), "q" + queue);
        steps.add("submit " + request);
    }

    WorkloadKey pick(Expect... states) {
        List<WorkloadKey> keys = new ArrayList<>();
        Set<Expect> wanted = Set.of(states);
        for (Map.Entry<WorkloadKey, Expect> entry : expected.entrySet()) if (wanted.contains(entry.getValue())) keys.add(entry.getKey());
        return keys.isEmpty() ? null : keys.get(random.nextInt(keys.size()));
    }

    WorkloadKey pickHolder() {
        List<WorkloadKey> keys = new ArrayList<>(holders().keySet());
        return keys.isEmpty() ? null : keys.get(random.nextInt(keys.size()));
    }

    void finish() {
        WorkloadKey key = random.nextInt(4) == 0 ? pick(Expect.LIVE, Expect.INACTIVE) : pickHolder();
        if (key == null) return;
        controller.finish(key, random.nextBoolean(), null, null);
        expected.put(key, Expect.FINISHED);
        steps.add("finish " + key);
    }

    void delete() {
        WorkloadKey key = pick(Expect.LIVE, Expect.INACTIVE, Expect.FINISHED);
        if (key == null) return;
        controller.delete(key);
        expected.put(key, Expect.DELETED);
        steps.add("delete " + key);
    }

    void toggleActive() {
        WorkloadKey key = pick(Expect.LIVE, Expect.INACTIVE);
        if (key == null) return;
        boolean activate = expected.get(key) == Expect.INACTIVE;
        controller.setActive(key, activate);
        expected.put(key, activate ? Expect.LIVE : Expect.INACTIVE);
        steps.add((activate ? "activate " : "deactivate ") + key);
    }

    void checkResult() {
        List<WorkloadKey> waiting = new ArrayList<>();
        for (WorkloadKey key : holders().keySet()) if (!sink.workloads.get(key).admissionChecks().isEmpty()) waiting.add(key);
        if (waiting.isEmpty()) return;
        WorkloadKey key = waiting.get(random.nextInt(waiting.size()));
        String[] states = {CheckStates.READY, CheckStates.READY, CheckStates.RETRY, CheckStates.REJECTED, CheckStates.PENDING};
        String state = states[random.nextInt(states.length)];
        controller.setAdmissionCheckState(key, "check", state, "");
        if (state.equals(CheckStates.REJECTED)) expected.put(key, Expect.INACTIVE);
        steps.add("check " + key + " " + state);
    }

    void editQuota() {
        int index = random.nextInt(QUEUES);
        ClusterQueueSpec old = specs.get("q" + index);
        ClusterQueueSpec spec = randomQueue(index, old.stopPolicy());
        specs.put(spec.name(), spec);
        for (Map.Entry<WorkloadKey, String> holder : holders().entrySet()) {
            if (cohortOf(holder.getValue()).equals(spec.cohort())) grandfathered.add(holder.getKey());
        }
        controller.applyClusterQueue(spec);
        steps.add("edit " + spec);
    }

    void editStopPolicy() {
        ClusterQueueSpec old = specs.get("q" + random.nextInt(QUEUES));
        StopPolicy policy = StopPolicy.values()[random.nextInt(3)];
        ClusterQueueSpec spec = new ClusterQueueSpec(old.name(), old.cohort(), old.resourceGroups(), old.queueingStrategy(),
                old.namespaceSelector(), old.flavorFungibility(), old.preemption(), old.admissionChecks(), policy, old.fairSharingWeight());
        specs.put(spec.name(), spec);
        controller.applyClusterQueue(spec);
        steps.add("stopPolicy " + spec.name() + " " + policy);
    }

    void editLocalQueueStopPolicy() {
        int index = random.nextInt(QUEUES);
        StopPolicy policy = StopPolicy.values()[random.nextInt(3)];
        controller.applyLocalQueue(new LocalQueueSpec("ns" + index, "lq", "q" + index, policy));
        steps.add("localQueue stopPolicy ns" + index + "/lq " + policy);
    }

    // ---- invariants -------------------------------------------------------------------

    /** Workloads holding quota according to the sink: QuotaReserved=True with an admission. */
    Map<WorkloadKey, String> holders() {
        Map<WorkloadKey, String> holders = new LinkedHashMap<>();
        for (Map.Entry<WorkloadKey, Expect> entry : expected.entrySet()) {
            if (entry.getValue() == Expect.DELETED || entry.getValue() == Expect.FINISHED) continue;
            WorkloadStatus status = sink.workloads.get(entry.getKey());
            if (status != null && status.isTrue(Conditions.QUOTA_RESERVED) && status.admission() != null) {
                holders.put(entry.getKey(), status.admission().clusterQueue());
            }
        }
        return holders;
    }

    static String cohortOf(String queue) {
        return "cohort" + (Integer.parseInt(queue.substring(1)) / 3);
    }

    void checkInvariants() {
        Map<WorkloadKey, String> holders = holders();
        grandfathered.retainAll(holders.keySet());
        Map<String, Map<FlavorResource, Long>> usage = new HashMap<>();
        for (String queue : specs.keySet()) usage.put(queue, new HashMap<>());
        for (Map.Entry<WorkloadKey, String> holder : holders.entrySet()) {
            sink.workloads.get(holder.getKey()).admission().usage()
                    .forEach((fr, amount) -> usage.get(holder.getValue()).merge(fr, amount, Long::sum));
        }
        usageMatchesController(usage);
        accounting(holders);
        Set<String> tight = new HashSet<>();
        for (String cohort : List.of("cohort0", "cohort1")) tight.add(cohort);
        for (WorkloadKey key : grandfathered) tight.remove(cohortOf(holders.get(key)));
        for (String cohort : tight) quotaRespected(cohort, usage);
        for (String queue : specs.keySet()) {
            QueueStatus status = sink.clusterQueues.get(queue);
            long reserving = holders.values().stream().filter(queue::equals).count();
            if (status != null) assertThat(status.reservingWorkloads()).as("reservingWorkloads of " + queue).isEqualTo((int) reserving);
        }
    }

    /** (3) usageOf(cq) is the sum of the admissions of the queue's workloads. */
    void usageMatchesController(Map<String, Map<FlavorResource, Long>> usage) {
        for (String queue : specs.keySet()) {
            Map<String, Long> fromSink = new HashMap<>();
            usage.get(queue).forEach((fr, amount) -> { if (amount != 0) fromSink.put(fr.toString(), amount); });
            Map<String, Long> fromController = new HashMap<>();
            controller.usageOf(queue).forEach((fr, amount) -> { if (amount != 0) fromController.put(fr, amount); });
            assertThat(fromController).as("usageOf(" + queue + ")").isEqualTo(fromSink);
        }
    }

    /** (2) each workload is exactly one of pending, holding quota, finished, inactive or deleted. */
    void accounting(Map<WorkloadKey, String> holders) {
        Map<WorkloadKey, Integer> pendingCount = new HashMap<>();
        for (String queue : specs.keySet()) {
            for (WorkloadKey key : controller.pendingIn(queue)) pendingCount.merge(key, 1, Integer::sum);
        }
        for (Map.Entry<WorkloadKey, Expect> entry : expected.entrySet()) {
            WorkloadKey key = entry.getKey();
            int pending = pendingCount.getOrDefault(key, 0);
            boolean holds = holders.containsKey(key);
            switch (entry.getValue()) {
                case DELETED -> {
                    assertThat(controller.statusOf(key)).as(key + " deleted").isNull();
                    assertThat(pending).as(key + " deleted but pending").isZero();
                }
                case FINISHED -> {
                    assertThat(sink.workloads.get(key).isTrue(Conditions.FINISHED)).as(key + " finished").isTrue();
                    assertThat(pending).as(key + " finished but pending").isZero();
                }
                case INACTIVE -> {
                    assertThat(holds).as(key + " inactive but holding quota").isFalse();
                    assertThat(pending).as(key + " inactive but pending").isZero();
                    assertThat(sink.active.get(key)).as(key + " reported active").isNotEqualTo(Boolean.TRUE);
                }
                case LIVE -> {
                    assertThat(pending + (holds ? 1 : 0)).as(key + " pending " + pending + " times, holding quota " + holds).isEqualTo(1);
                    if (holds) assertThat(holders.get(key)).as(key + " admitted to the wrong queue").isEqualTo(queueOf.get(key));
                }
            }
        }
    }

    /** (1) quota: per queue nominal + borrowingLimit; per cohort the sum of nominal; lending limits protect guaranteed quota. */
    void quotaRespected(String cohort, Map<String, Map<FlavorResource, Long>> usage) {
        for (String flavor : FLAVORS) {
            FlavorResource fr = new FlavorResource(flavor, GPU);
            long cohortUsage = 0;
            long cohortNominal = 0;
            long borrowedFromPool = 0;
            long lendablePool = 0;
            for (ClusterQueueSpec spec : specs.values()) {
                if (!spec.cohort().equals(cohort)) continue;
                ResourceQuota quota = spec.resourceGroups().get(0).flavors().stream()
                        .filter(f -> f.flavor().equals(flavor)).findFirst().orElseThrow().quota(GPU);
                long used = usage.get(spec.name()).getOrDefault(fr, 0L);
                if (quota.borrowingLimit() != null) {
                    assertThat(used).as(spec.name() + " " + fr + " usage <= nominal + borrowingLimit")
                            .isLessThanOrEqualTo(quota.nominal() + quota.borrowingLimit());
                }
                long guaranteed = quota.lendingLimit() == null ? 0 : Math.max(0, quota.nominal() - quota.lendingLimit());
                borrowedFromPool += Math.max(0, used - guaranteed);
                lendablePool += quota.nominal() - guaranteed;
                cohortUsage += used;
                cohortNominal += quota.nominal();
            }
            assertThat(cohortUsage).as(cohort + " " + fr + " usage <= sum of nominal quotas").isLessThanOrEqualTo(cohortNominal);
            assertThat(borrowedFromPool).as(cohort + " " + fr + " usage beyond guaranteed quota <= lendable quota")
                    .isLessThanOrEqualTo(lendablePool);
        }
    }

    private static String summary(WorkloadStatus status) {
        StringBuilder text = new StringBuilder();
        for (Condition condition : status.conditions()) {
            if (condition.status()) text.append(condition.type()).append('(').append(condition.reason()).append(") ");
        }
        Condition reserved = status.condition(Conditions.QUOTA_RESERVED);
        if (reserved != null) text.append("| ").append(reserved.message());
        if (status.admission() != null) text.append(" | ").append(status.admission().usage());
        return text.toString();
    }
}
