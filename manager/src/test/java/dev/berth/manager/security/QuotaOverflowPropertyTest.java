package dev.berth.manager.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.core.AdmissionController;
import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.core.WorkloadStatus;
import dev.berth.manager.model.ClusterQueueSpec;
import dev.berth.manager.model.FlavorResource;
import dev.berth.manager.model.LocalQueueSpec;
import dev.berth.manager.model.Quantity;
import dev.berth.manager.model.ResourceFlavor;
import dev.berth.manager.model.ResourceQuota;
import dev.berth.manager.model.StopPolicy;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.model.WorkloadRequest;
import dev.berth.manager.objects.ClusterQueueDecoder;
import dev.berth.manager.objects.FieldCause;
import dev.berth.manager.objects.InvalidObjectException;
import dev.berth.manager.objects.PriorityClassInfo;
import dev.berth.manager.objects.PriorityResolver;
import dev.berth.manager.objects.WorkloadDecoder;
import dev.berth.manager.objects.WorkloadFactory;
import dev.berth.manager.testing.MutableClock;
import dev.berth.manager.testing.RecordingSink;
import dev.berth.protocol.Conditions;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;

/**
 * Quota arithmetic under extreme quantities and counts (issue 12, class 2). Random ClusterQueues with
 * quotas up to the largest accepted quantity and random Workloads whose requests and counts sit on
 * both sides of what a long holds go through the real validation (the edge's {@link ObjectLimits},
 * the Workload normalizer and decoder) and the real {@link AdmissionController}. Every refusal must be
 * a 422 naming a field; every total that a long cannot hold must be refused; and after every cycle
 * no ClusterQueue's usage is negative or above nominal + borrowingLimit (or the cohort's quota), and
 * every admission accounts exactly what its pods request.
 */
class QuotaOverflowPropertyTest {
    private static final int RUNS = Integer.getInteger("berth.overflow.runs", 300);
    private static final int WORKLOADS_PER_RUN = 15;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String FLAVOR = "f";
    private static final List<String> RESOURCES = List.of("cpu", "memory");
    private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);
    private static final String[] CPU = {"0", "100m", "1", "32", "4611686018402387.904", "5e15", "9e15", "9007199254740.993", "1e16", "2305843009213693952m"};
    private static final String[] MEMORY = {"1Gi", "1Ti", "4Pi", "8e15", "9e15", "4611686018427387904", "1Ei"};
    private static final String[] QUOTA_CPU = {"0", "32", "1000", "4611686018402387.904", "9e15", "1e16"};
    private static final String[] QUOTA_MEMORY = {"0", "128Gi", "4Pi", "9e15", "8Ei"};
    private static final int[] COUNTS = {1, 2, 3, 4, 1000, 1 << 20, Integer.MAX_VALUE};
    private static final PriorityResolver NO_CLASSES = new PriorityResolver() {
        @Override
        public Integer workloadPriorityClass(String name) {
            return null;
        }

        @Override
        public Integer priorityClass(String name) {
            return null;
        }

        @Override
        public PriorityClassInfo defaultPriorityClass() {
            return null;
        }
    };

    @BeforeAll
    static void quietLogs() {
        ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(AdmissionController.class.getPackageName())).setLevel(ch.qos.logback.classic.Level.WARN);
    }

    @AfterAll
    static void restoreLogs() {
        ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(AdmissionController.class.getPackageName())).setLevel(null);
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void usageStaysWithinQuotaAndEveryRefusalIsA422NamingAField() {
        long base = Long.getLong("berth.overflow.seed", 20261201L);
        int refused = 0;
        int admitted = 0;
        for (int run = 0; run < RUNS; run++) {
            long seed = base + run;
            Run history = new Run(seed);
            try {
                history.play();
            } catch (AssertionError | RuntimeException failure) {
                fail("seed " + seed + " failed:\n  " + String.join("\n  ", history.steps) + "\n" + failure.getMessage(), failure);
            }
            refused += history.refused;
            admitted += history.admittedEver;
        }
        // The generator reaches both sides of the boundary, or the property says little.
        assertThat(refused).as("refused workloads").isGreaterThan(RUNS);
        assertThat(admitted).as("admitted workloads").isGreaterThan(RUNS);
    }

    /** One random cohort and a stream of workloads against a fresh controller. */
    private static final class Run {
        final Random random;
        final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T00:00:00Z"));
        final RecordingSink sink = new RecordingSink();
        final AdmissionController controller;
        final Map<String, ClusterQueueSpec> queues = new HashMap<>();
        final Map<WorkloadKey, String> queueOf = new HashMap<>();
        final Map<WorkloadKey, Map<String, BigInteger>> exactTotals = new HashMap<>();
        final List<String> steps = new ArrayList<>();
        int refused;
        int admittedEver;

        Run(long seed) {
            random = new Random(seed);
            controller = new AdmissionController(clock, SchedulerOptions.DEFAULTS, sink);
        }

        void play() {
            controller.applyResourceFlavor(ResourceFlavor.named(FLAVOR));
            for (int i = 0; i < 3; i++) {
                ObjectNode queue = clusterQueue("cq" + i);
                steps.add("clusterqueue " + queue);
                ClusterQueueSpec spec = validateClusterQueue(queue);
                if (spec == null) continue;
                queues.put(spec.name(), spec);
                controller.applyClusterQueue(spec);
                controller.applyLocalQueue(new LocalQueueSpec("ns" + i, "lq", spec.name(), StopPolicy.NONE));
            }
            if (queues.isEmpty()) return;
            List<String> names = new ArrayList<>(queues.keySet());
            for (int w = 0; w < WORKLOADS_PER_RUN; w++) {
                clock.advance(Duration.ofSeconds(1));
                if (random.nextInt(4) == 0) finishOne();
                String cq = names.get(random.nextInt(names.size()));
                submit("w" + w, "ns" + cq.substring(2));
                controller.schedule();
                checkInvariants();
            }
        }

        ObjectNode clusterQueue(String name) {
            ObjectNode queue = object("ClusterQueue", name, null);
            ObjectNode spec = queue.putObject("spec");
            spec.put("cohortName", "pool");
            spec.putObject("namespaceSelector");
            spec.putObject("preemption").put("reclaimWithinCohort", "Any").put("withinClusterQueue", "LowerPriority");
            ObjectNode group = spec.putArray("resourceGroups").addObject();
            ArrayNode covered = group.putArray("coveredResources");
            RESOURCES.forEach(covered::add);
            ArrayNode resources = group.putArray("flavors").addObject().put("name", FLAVOR).putArray("resources");
            for (String resource : RESOURCES) {
                String[] choices = resource.equals("cpu") ? QUOTA_CPU : QUOTA_MEMORY;
                ObjectNode quota = resources.addObject().put("name", resource).put("nominalQuota", pick(choices));
                if (random.nextBoolean()) quota.put("borrowingLimit", pick(choices));
                if (random.nextInt(3) == 0) quota.put("lendingLimit", pick(choices));
            }
            return queue;
        }

        /** The edge check and the decoder, as the API runs them; null when refused (with a 422 naming a field). */
        ClusterQueueSpec validateClusterQueue(ObjectNode queue) {
            try {
                ObjectLimits.check(queue, "ClusterQueue", false, JSON.writeValueAsBytes(queue).length);
                return ClusterQueueDecoder.decode(queue);
            } catch (InvalidObjectException refusal) {
                assertRefusalNamesAField(refusal);
                return null;
            } catch (java.io.IOException e) {
                throw new IllegalStateException(e);
            }
        }

        void submit(String name, String namespace) {
            ObjectNode workload = object("Workload", name, namespace);
            workload.with("metadata").put("creationTimestamp", clock.instant().toString());
            ObjectNode spec = workload.putObject("spec");
            spec.put("queueName", "lq");
            spec.put("priority", random.nextInt(3));
            ArrayNode podSets = spec.putArray("podSets");
            Map<String, BigInteger> exact = new HashMap<>();
            boolean representable = true;
            int podSetCount = 1 + random.nextInt(2);
            for (int p = 0; p < podSetCount; p++) {
                int count = COUNTS[random.nextInt(COUNTS.length)];
                ObjectNode podSet = podSets.addObject().put("name", "ps" + p).put("count", count);
                ObjectNode podSpec = podSet.putObject("template").putObject("spec");
                Map<String, BigInteger> perPod = new HashMap<>();
                ArrayNode containers = podSpec.putArray("containers");
                for (int c = 0, n = 1 + random.nextInt(3); c < n; c++) {
                    add(perPod, requests(containers.addObject().put("name", "c" + c)));
                }
                if (random.nextInt(4) == 0) {
                    Map<String, BigInteger> init = requests(podSpec.putArray("initContainers").addObject().put("name", "init"));
                    init.forEach((resource, amount) -> perPod.merge(resource, amount, BigInteger::max));
                }
                for (BigInteger amount : perPod.values()) representable &= amount.compareTo(LONG_MAX) <= 0;
                perPod.forEach((resource, amount) -> exact.merge(resource, amount.multiply(BigInteger.valueOf(count)), BigInteger::add));
            }
            for (BigInteger amount : exact.values()) representable &= amount.compareTo(LONG_MAX) <= 0;
            steps.add("workload " + workload);

            WorkloadRequest request;
            try {
                ObjectLimits.check(workload, "Workload", false, JSON.writeValueAsBytes(workload).length);
                request = WorkloadDecoder.request(WorkloadFactory.normalizeWorkload(workload, NO_CLASSES));
            } catch (InvalidObjectException refusal) {
                assertRefusalNamesAField(refusal);
                refused++;
                return;
            } catch (java.io.IOException e) {
                throw new IllegalStateException(e);
            }
            assertThat(representable).as("a workload whose total a long cannot hold was accepted: " + exact).isTrue();
            exactTotals.put(request.key(), exact);
            queueOf.put(request.key(), "cq" + namespace.substring(2));
            controller.submit(request, true, WorkloadStatus.EMPTY);
        }

        Map<String, BigInteger> requests(ObjectNode container) {
            ObjectNode requests = container.putObject("resources").putObject("requests");
            Map<String, BigInteger> amounts = new HashMap<>();
            for (String resource : RESOURCES) {
                if (random.nextInt(4) == 0) continue;
                String value = pick(resource.equals("cpu") ? CPU : MEMORY);
                requests.put(resource, value);
                BigInteger canonical = Quantity.parse(value).movePointRight(resource.equals("cpu") ? 3 : 0)
                        .setScale(0, java.math.RoundingMode.CEILING).toBigIntegerExact();
                if (canonical.signum() > 0) amounts.put(resource, canonical);
            }
            return amounts;
        }

        void finishOne() {
            for (Map.Entry<WorkloadKey, WorkloadStatus> entry : sink.workloads.entrySet()) {
                if (entry.getValue().isTrue(Conditions.QUOTA_RESERVED) && !entry.getValue().isTrue(Conditions.FINISHED)) {
                    steps.add("finish " + entry.getKey());
                    controller.finish(entry.getKey(), true, "Succeeded", "done");
                    return;
                }
            }
        }

        void checkInvariants() {
            Map<String, Map<FlavorResource, BigInteger>> reserved = new HashMap<>();
            for (Map.Entry<WorkloadKey, WorkloadStatus> entry : sink.workloads.entrySet()) {
                WorkloadStatus status = entry.getValue();
                if (!status.isTrue(Conditions.QUOTA_RESERVED) || status.isTrue(Conditions.FINISHED) || status.admission() == null) continue;
                admittedEver++;
                Map<FlavorResource, Long> usage = status.admission().usage();
                for (Map.Entry<FlavorResource, Long> used : usage.entrySet()) {
                    if (used.getKey().resource().equals("pods")) continue;
                    assertThat(BigInteger.valueOf(used.getValue())).as(entry.getKey() + " accounts " + used.getKey() + " exactly")
                            .isEqualTo(exactTotals.get(entry.getKey()).getOrDefault(used.getKey().resource(), BigInteger.ZERO));
                    reserved.computeIfAbsent(queueOf.get(entry.getKey()), q -> new HashMap<>())
                            .merge(used.getKey(), BigInteger.valueOf(used.getValue()), BigInteger::add);
                }
            }
            Map<FlavorResource, BigInteger> cohortQuota = new HashMap<>();
            Map<FlavorResource, BigInteger> cohortUsage = new HashMap<>();
            for (ClusterQueueSpec queue : queues.values()) {
                for (ResourceQuota quota : queue.resourceGroups().get(0).flavors().get(0).resources()) {
                    FlavorResource fr = new FlavorResource(FLAVOR, quota.resource());
                    cohortQuota.merge(fr, BigInteger.valueOf(quota.nominal()), BigInteger::add);
                    long cached = controller.usageOf(queue.name()).getOrDefault(fr.toString(), 0L);
                    BigInteger fromStatuses = reserved.getOrDefault(queue.name(), Map.of()).getOrDefault(fr, BigInteger.ZERO);
                    assertThat(cached).as(queue.name() + " usage of " + fr + " is never negative").isNotNegative();
                    assertThat(BigInteger.valueOf(cached)).as(queue.name() + " cached usage of " + fr).isEqualTo(fromStatuses);
                    if (quota.borrowingLimit() != null) {
                        assertThat(fromStatuses).as(queue.name() + " usage of " + fr + " within nominal + borrowingLimit")
                                .isLessThanOrEqualTo(BigInteger.valueOf(quota.nominal()).add(BigInteger.valueOf(quota.borrowingLimit())));
                    }
                    cohortUsage.merge(fr, fromStatuses, BigInteger::add);
                }
            }
            cohortUsage.forEach((fr, used) -> assertThat(used).as("cohort usage of " + fr + " within the cohort's nominal quota")
                    .isLessThanOrEqualTo(cohortQuota.get(fr)));
        }

        String pick(String[] choices) {
            return choices[random.nextInt(choices.length)];
        }
    }

    private static void add(Map<String, BigInteger> sum, Map<String, BigInteger> addend) {
        addend.forEach((resource, amount) -> sum.merge(resource, amount, BigInteger::add));
    }

    private static void assertRefusalNamesAField(InvalidObjectException refusal) {
        assertThat(refusal.httpStatus()).as(refusal.getMessage()).isEqualTo(422);
        assertThat(refusal.causes()).as(refusal.getMessage()).isNotEmpty();
        for (FieldCause cause : refusal.causes()) assertThat(cause.field()).as(refusal.getMessage()).isNotBlank();
    }

    private static ObjectNode object(String kind, String name, String namespace) {
        ObjectNode object = JSON.createObjectNode();
        object.put("apiVersion", "kueue.x-k8s.io/v1beta2");
        object.put("kind", kind);
        ObjectNode metadata = object.putObject("metadata");
        metadata.put("name", name);
        if (namespace != null) metadata.put("namespace", namespace);
        return object;
    }
}
