package dev.berth.manager.metrics;

import static dev.berth.manager.testing.Fixtures.clusterQueue;
import static dev.berth.manager.testing.Fixtures.flavor;
import static dev.berth.manager.testing.Fixtures.localQueue;
import static dev.berth.manager.testing.Fixtures.quota;
import static dev.berth.manager.testing.Fixtures.workload;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.core.AdmissionController;
import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.model.PreemptionPolicy;
import dev.berth.manager.model.ResourceFlavor;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.testing.MutableClock;
import dev.berth.manager.testing.RecordingSink;
import dev.berth.protocol.MetricNames;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The scrape after real admission decisions: Kueue's metric names, types, labels, buckets and values.
 * The controller's clock moves, so wait times are exact.
 */
class KueueMetricsTest {
    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
    private final MutableClock clock = new MutableClock(START);
    private final RecordingSink sink = new RecordingSink();
    private final BerthMetrics metrics = new BerthMetrics();
    private AdmissionController controller;

    @BeforeEach
    void queues() {
        controller = new AdmissionController(clock, SchedulerOptions.DEFAULTS, sink);
        controller.setListener(metrics.admissionListener());
        controller.applyResourceFlavor(ResourceFlavor.named("default"));
        controller.applyClusterQueue(clusterQueue("team").cohort("pool")
                .preemption(PreemptionPolicy.LOWER_PRIORITY, PreemptionPolicy.NEVER)
                .group(flavor("default", quota("cpu", "4", "2", null), quota("memory", "8Gi"))).build());
        controller.applyLocalQueue(localQueue("team", "lq", "team"));
        controller.schedule();
    }

    private PrometheusText scrape() {
        metrics.refresh(controller.queueMetrics(), List.of());
        return new PrometheusText(metrics.scrape());
    }

    private void submit(String name, int priority, String cpu) {
        controller.submit(workload("team", name).priority(priority).createdAt(clock.millis()).request("cpu", cpu)
                .request("memory", "1Gi").build(), true, null);
    }

    @Test
    void anAdmissionIsCountedWithItsWaitInKueuesBuckets() {
        submit("first", 0, "3500m");
        clock.advance(Duration.ofSeconds(30));
        controller.schedule();

        PrometheusText scrape = scrape();
        assertThat(scrape.value(MetricNames.ADMITTED_WORKLOADS, "cluster_queue", "team", "priority_class", "")).isEqualTo(1.0);
        assertThat(scrape.value(MetricNames.QUOTA_RESERVED_WORKLOADS, "cluster_queue", "team", "priority_class", "")).isEqualTo(1.0);
        assertThat(scrape.types).containsEntry(MetricNames.ADMISSION_WAIT_TIME, "histogram")
                .containsEntry(MetricNames.ADMITTED_WORKLOADS, "counter");
        String bucket = MetricNames.ADMISSION_WAIT_TIME + "_bucket";
        assertThat(scrape.family(bucket).keySet().stream().map(k -> k.replaceAll(".*le=\"([^\"]+)\".*", "$1"))
                .collect(Collectors.toList()))
                .containsExactly("1.0", "2.5", "5.0", "10.0", "20.0", "40.0", "80.0", "160.0", "320.0", "640.0",
                        "1280.0", "2560.0", "5120.0", "10240.0", "20480.0", "40960.0", "+Inf");
        String quotaBucket = MetricNames.QUOTA_RESERVED_WAIT_TIME + "_bucket";
        assertThat(scrape.family(quotaBucket)).hasSize(15); // v0.16: 14 buckets here, 16 on admission_wait_time
        assertThat(scrape.value(bucket, "cluster_queue", "team", "priority_class", "", "le", "20.0")).isEqualTo(0.0);
        assertThat(scrape.value(bucket, "cluster_queue", "team", "priority_class", "", "le", "40.0")).isEqualTo(1.0);
        assertThat(scrape.value(MetricNames.ADMISSION_WAIT_TIME + "_sum", "cluster_queue", "team", "priority_class", "")).isEqualTo(30.0);
        assertThat(scrape.value(MetricNames.QUOTA_RESERVED_WAIT_TIME + "_count", "cluster_queue", "team", "priority_class", "")).isEqualTo(1.0);
        assertThat(scrape.value(MetricNames.ADMISSION_ATTEMPTS, "result", "success")).isEqualTo(1.0);
        assertThat(scrape.value(MetricNames.ADMISSION_ATTEMPT_DURATION + "_count", "result", "success")).isEqualTo(1.0);
    }

    @Test
    void quotaGaugesCarryCohortQueueFlavorAndResourceWithCpuInCores() {
        submit("first", 0, "3500m");
        controller.schedule();

        PrometheusText scrape = scrape();
        String[] cpu = {"cohort", "pool", "cluster_queue", "team", "flavor", "default", "resource", "cpu"};
        String[] memory = {"cohort", "pool", "cluster_queue", "team", "flavor", "default", "resource", "memory"};
        assertThat(scrape.value(MetricNames.CLUSTER_QUEUE_RESOURCE_USAGE, cpu)).isEqualTo(3.5);
        assertThat(scrape.value(MetricNames.CLUSTER_QUEUE_RESOURCE_RESERVATION, cpu)).isEqualTo(3.5);
        assertThat(scrape.value(MetricNames.CLUSTER_QUEUE_NOMINAL_QUOTA, cpu)).isEqualTo(4.0);
        assertThat(scrape.value(MetricNames.CLUSTER_QUEUE_BORROWING_LIMIT, cpu)).isEqualTo(2.0);
        assertThat(scrape.value(MetricNames.CLUSTER_QUEUE_LENDING_LIMIT, cpu)).isEqualTo(0.0);
        assertThat(scrape.value(MetricNames.CLUSTER_QUEUE_NOMINAL_QUOTA, memory)).isEqualTo(8.0 * (1L << 30));
        assertThat(scrape.value(MetricNames.CLUSTER_QUEUE_RESOURCE_USAGE, memory)).isEqualTo(1.0 * (1L << 30));
        assertThat(scrape.value(MetricNames.CLUSTER_QUEUE_STATUS, "cluster_queue", "team", "status", "active")).isEqualTo(1.0);
        assertThat(scrape.value(MetricNames.CLUSTER_QUEUE_STATUS, "cluster_queue", "team", "status", "pending")).isEqualTo(0.0);
        assertThat(scrape.value(MetricNames.CLUSTER_QUEUE_STATUS, "cluster_queue", "team", "status", "terminating")).isEqualTo(0.0);
    }

    @Test
    void aPreemptionIsCountedForThePreemptorAndAsAnEvictionOfTheVictim() {
        submit("low", 0, "4");
        controller.schedule();
        clock.advance(Duration.ofSeconds(5));
        submit("high", 10, "4");
        controller.schedule();

        PrometheusText scrape = scrape();
        assertThat(sink.workloads.get(WorkloadKey.of("team", "high")).isTrue("Admitted")).isTrue();
        assertThat(scrape.value(MetricNames.PREEMPTED_WORKLOADS, "preempting_cluster_queue", "team", "reason", "InClusterQueue"))
                .isEqualTo(1.0);
        assertThat(scrape.value(MetricNames.EVICTED_WORKLOADS, "cluster_queue", "team", "reason", "Preempted",
                "underlying_cause", "", "priority_class", "")).isEqualTo(1.0);
        assertThat(scrape.value(MetricNames.ADMITTED_WORKLOADS, "cluster_queue", "team", "priority_class", "")).isEqualTo(2.0);
        assertThat(scrape.value(MetricNames.PENDING_WORKLOADS, "cluster_queue", "team", "status", "inadmissible")).isEqualTo(1.0);
        assertThat(scrape.value(MetricNames.PENDING_WORKLOADS, "cluster_queue", "team", "status", "active")).isEqualTo(0.0);
    }

    @Test
    void aDeletedClusterQueueLeavesNoGauges() {
        assertThat(scrape().family(MetricNames.CLUSTER_QUEUE_NOMINAL_QUOTA)).isNotEmpty();
        controller.deleteClusterQueue("team");
        controller.schedule();
        PrometheusText scrape = scrape();
        assertThat(scrape.family(MetricNames.CLUSTER_QUEUE_NOMINAL_QUOTA)).isEmpty();
        assertThat(scrape.family(MetricNames.PENDING_WORKLOADS)).isEmpty();
    }
}
