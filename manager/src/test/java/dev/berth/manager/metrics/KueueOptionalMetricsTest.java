package dev.berth.manager.metrics;

import static dev.berth.manager.testing.Fixtures.clusterQueue;
import static dev.berth.manager.testing.Fixtures.cohort;
import static dev.berth.manager.testing.Fixtures.flavor;
import static dev.berth.manager.testing.Fixtures.localQueue;
import static dev.berth.manager.testing.Fixtures.quota;
import static dev.berth.manager.testing.Fixtures.workload;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.core.AdmissionController;
import dev.berth.manager.core.FlavorUsage;
import dev.berth.manager.core.MetricsOptions;
import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.model.ResourceFlavor;
import dev.berth.manager.testing.MutableClock;
import dev.berth.manager.testing.RecordingSink;
import dev.berth.protocol.MetricNames;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Kueue v0.16's optional series (LocalQueue metrics, weighted shares) and the status fields that go
 * with them, after real admissions. The tree: root cohort org holds ClusterQueue lender (4 cpu) and
 * cohort pool, which holds ClusterQueue team (4 cpu). A 6-cpu workload in team borrows 2 cpu that
 * org could lend 8 of: team's and pool's weighted share are 2 × 1000 / 8 = 250, org's (a root) 0.
 */
class KueueOptionalMetricsTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final RecordingSink sink = new RecordingSink();

    private AdmissionController controller(boolean fairSharing) {
        SchedulerOptions options = new SchedulerOptions(fairSharing, SchedulerOptions.DEFAULTS.preemptionStrategies(), null);
        AdmissionController controller = new AdmissionController(clock, options, sink);
        controller.applyResourceFlavor(ResourceFlavor.named("default"));
        controller.applyCohort(cohort("org", null));
        controller.applyCohort(cohort("pool", "org"));
        controller.applyClusterQueue(clusterQueue("team").cohort("pool").group(flavor("default", quota("cpu", "4"))).build());
        controller.applyClusterQueue(clusterQueue("lender").cohort("org").group(flavor("default", quota("cpu", "4"))).build());
        controller.applyLocalQueue(localQueue("team", "lq", "team"));
        controller.schedule();
        return controller;
    }

    private static PrometheusText scrape(BerthMetrics metrics, AdmissionController controller) {
        metrics.refresh(controller.queueMetrics(), List.of());
        return new PrometheusText(metrics.scrape());
    }

    private void submitBorrowingAndTooLarge(AdmissionController controller) {
        controller.submit(workload("team", "borrower").priorityClass("high").createdAt(clock.millis()).request("cpu", "6").build(), true, null);
        controller.submit(workload("team", "too-large").createdAt(clock.millis()).request("cpu", "10").build(), true, null);
        clock.advance(Duration.ofSeconds(3));
        controller.schedule();
    }

    @Test
    void localQueueSeriesCarryNameNamespaceAndPriorityClassWhenEnabled() {
        AdmissionController controller = controller(false);
        BerthMetrics metrics = new BerthMetrics(new MetricsOptions(true, true), false);
        controller.setListener(metrics.admissionListener());
        submitBorrowingAndTooLarge(controller);

        PrometheusText scrape = scrape(metrics, controller);
        String[] lq = {"name", "lq", "namespace", "team"};
        assertThat(scrape.value(MetricNames.LOCAL_QUEUE_PENDING_WORKLOADS, "name", "lq", "namespace", "team", "status", "inadmissible")).isEqualTo(1.0);
        assertThat(scrape.value(MetricNames.LOCAL_QUEUE_PENDING_WORKLOADS, "name", "lq", "namespace", "team", "status", "active")).isEqualTo(0.0);
        assertThat(scrape.value(MetricNames.LOCAL_QUEUE_RESERVING_ACTIVE_WORKLOADS, lq)).isEqualTo(1.0);
        assertThat(scrape.value(MetricNames.LOCAL_QUEUE_ADMITTED_ACTIVE_WORKLOADS, lq)).isEqualTo(1.0);
        assertThat(scrape.value(MetricNames.LOCAL_QUEUE_STATUS, "name", "lq", "namespace", "team", "active", "True")).isEqualTo(1.0);
        assertThat(scrape.value(MetricNames.LOCAL_QUEUE_STATUS, "name", "lq", "namespace", "team", "active", "False")).isEqualTo(0.0);
        assertThat(scrape.value(MetricNames.LOCAL_QUEUE_STATUS, "name", "lq", "namespace", "team", "active", "Unknown")).isEqualTo(0.0);
        String[] cpu = {"name", "lq", "namespace", "team", "flavor", "default", "resource", "cpu"};
        assertThat(scrape.value(MetricNames.LOCAL_QUEUE_RESOURCE_RESERVATION, cpu)).isEqualTo(6.0);
        assertThat(scrape.value(MetricNames.LOCAL_QUEUE_RESOURCE_USAGE, cpu)).isEqualTo(6.0);
        String[] high = {"name", "lq", "namespace", "team", "priority_class", "high"};
        assertThat(scrape.value(MetricNames.LOCAL_QUEUE_QUOTA_RESERVED_WORKLOADS, high)).isEqualTo(1.0);
        assertThat(scrape.value(MetricNames.LOCAL_QUEUE_ADMITTED_WORKLOADS, high)).isEqualTo(1.0);
        assertThat(scrape.value(MetricNames.LOCAL_QUEUE_ADMISSION_WAIT_TIME + "_sum", high)).isEqualTo(3.0);
        assertThat(scrape.value(MetricNames.LOCAL_QUEUE_QUOTA_RESERVED_WAIT_TIME + "_count", high)).isEqualTo(1.0);
        assertThat(scrape.value(MetricNames.ADMITTED_WORKLOADS, "cluster_queue", "team", "priority_class", "high")).isEqualTo(1.0);
        assertThat(scrape.value(MetricNames.QUOTA_RESERVED_WORKLOADS, "cluster_queue", "team", "priority_class", "high")).isEqualTo(1.0);
        assertThat(scrape.value(MetricNames.RESERVING_ACTIVE_WORKLOADS, "cluster_queue", "team")).isEqualTo(1.0);
        assertThat(scrape.value(MetricNames.ADMITTED_ACTIVE_WORKLOADS, "cluster_queue", "team")).isEqualTo(1.0);
        assertThat(scrape.value(MetricNames.ADMITTED_ACTIVE_WORKLOADS, "cluster_queue", "lender")).isEqualTo(0.0);
        assertThat(scrape.types).containsEntry(MetricNames.LOCAL_QUEUE_ADMITTED_WORKLOADS, "counter")
                .containsEntry(MetricNames.LOCAL_QUEUE_RESOURCE_USAGE, "gauge")
                .containsEntry(MetricNames.LOCAL_QUEUE_ADMISSION_WAIT_TIME, "histogram");
        // Without fair sharing Kueue serves no weighted share.
        assertThat(scrape.family(MetricNames.CLUSTER_QUEUE_WEIGHTED_SHARE)).isEmpty();
        assertThat(scrape.family(MetricNames.COHORT_WEIGHTED_SHARE)).isEmpty();
    }

    @Test
    void localQueueSeriesAreOffByDefaultAsKueuesFeatureGate() {
        AdmissionController controller = controller(false);
        BerthMetrics metrics = new BerthMetrics();
        controller.setListener(metrics.admissionListener());
        submitBorrowingAndTooLarge(controller);

        PrometheusText scrape = scrape(metrics, controller);
        assertThat(scrape.samples.keySet()).noneMatch(key -> key.startsWith("kueue_local_queue_"));
        assertThat(scrape.value(MetricNames.ADMITTED_WORKLOADS, "cluster_queue", "team", "priority_class", "high")).isEqualTo(1.0);
        assertThat(scrape.family(MetricNames.CLUSTER_QUEUE_NOMINAL_QUOTA)).isNotEmpty();
    }

    @Test
    void withoutClusterQueueResourcesThePerFlavorGaugesAreNotServed() {
        AdmissionController controller = controller(true);
        BerthMetrics metrics = new BerthMetrics(new MetricsOptions(false, false), true);
        submitBorrowingAndTooLarge(controller);

        PrometheusText scrape = scrape(metrics, controller);
        assertThat(scrape.family(MetricNames.CLUSTER_QUEUE_NOMINAL_QUOTA)).isEmpty();
        assertThat(scrape.family(MetricNames.CLUSTER_QUEUE_RESOURCE_USAGE)).isEmpty();
        assertThat(scrape.family(MetricNames.CLUSTER_QUEUE_WEIGHTED_SHARE)).isEmpty();
        // The cohort's share and the workload counts are not optional in Kueue.
        assertThat(scrape.value(MetricNames.COHORT_WEIGHTED_SHARE, "cohort", "pool")).isEqualTo(250.0);
        assertThat(scrape.value(MetricNames.RESERVING_ACTIVE_WORKLOADS, "cluster_queue", "team")).isEqualTo(1.0);
    }

    @Test
    void fairSharingReportsWeightedSharesInStatusAndMetrics() {
        AdmissionController controller = controller(true);
        BerthMetrics metrics = new BerthMetrics(MetricsOptions.DEFAULTS, true);
        submitBorrowingAndTooLarge(controller);

        PrometheusText scrape = scrape(metrics, controller);
        assertThat(scrape.value(MetricNames.CLUSTER_QUEUE_WEIGHTED_SHARE, "cluster_queue", "team", "cohort", "pool")).isEqualTo(250.0);
        assertThat(scrape.value(MetricNames.CLUSTER_QUEUE_WEIGHTED_SHARE, "cluster_queue", "lender", "cohort", "org")).isEqualTo(0.0);
        assertThat(scrape.value(MetricNames.COHORT_WEIGHTED_SHARE, "cohort", "pool")).isEqualTo(250.0);
        assertThat(scrape.value(MetricNames.COHORT_WEIGHTED_SHARE, "cohort", "org")).isEqualTo(0.0);

        assertThat(sink.clusterQueues.get("team").weightedShare()).isEqualTo(250L);
        assertThat(sink.clusterQueues.get("lender").weightedShare()).isEqualTo(0L);
        assertThat(sink.cohorts.get("pool").weightedShare()).isEqualTo(250L);
        assertThat(sink.cohorts.get("org").weightedShare()).isEqualTo(0L);
    }

    @Test
    void withoutFairSharingStatusHasNoFairSharingBlock() {
        AdmissionController controller = controller(false);
        submitBorrowingAndTooLarge(controller);

        assertThat(sink.clusterQueues.get("team").weightedShare()).isNull();
        assertThat(sink.cohorts.get("pool").weightedShare()).isNull();
    }

    @Test
    void localQueueStatusListsEveryFlavorOfItsClusterQueueWithZeros() {
        AdmissionController controller = controller(false);
        controller.applyResourceFlavor(ResourceFlavor.named("spot"));
        controller.applyClusterQueue(clusterQueue("team").cohort("pool")
                .group(flavor("default", quota("cpu", "4"), quota("memory", "4Gi")), flavor("spot", quota("cpu", "4"), quota("memory", "4Gi")))
                .build());
        controller.submit(workload("team", "small").createdAt(clock.millis()).request("cpu", "1").build(), true, null);
        controller.schedule();

        var status = sink.localQueues.get("team/lq");
        assertThat(status.reservingWorkloads()).isEqualTo(1);
        assertThat(status.admittedWorkloads()).isEqualTo(1);
        assertThat(status.flavorsUsage()).containsExactly(
                new FlavorUsage("default", List.of(new FlavorUsage.ResourceUsage("cpu", 1000, 0), new FlavorUsage.ResourceUsage("memory", 0, 0))),
                new FlavorUsage("spot", List.of(new FlavorUsage.ResourceUsage("cpu", 0, 0), new FlavorUsage.ResourceUsage("memory", 0, 0))));
        assertThat(status.flavorsReservation()).isEqualTo(status.flavorsUsage());
    }

    @Test
    void aDeactivationIsCountedUnderDeactivatedWithItsUnderlyingCause() {
        AdmissionController controller = controller(false);
        BerthMetrics metrics = new BerthMetrics(new MetricsOptions(true, true), false);
        controller.setListener(metrics.admissionListener());
        controller.submit(workload("team", "limited").createdAt(clock.millis()).request("cpu", "1").maximumExecutionTimeSeconds(10).build(),
                true, null);
        controller.schedule();
        clock.advance(Duration.ofSeconds(11));
        controller.schedule();

        PrometheusText scrape = scrape(metrics, controller);
        assertThat(scrape.value(MetricNames.EVICTED_WORKLOADS, "cluster_queue", "team", "reason", "Deactivated",
                "underlying_cause", "MaximumExecutionTimeExceeded", "priority_class", "")).isEqualTo(1.0);
        assertThat(scrape.value(MetricNames.LOCAL_QUEUE_EVICTED_WORKLOADS, "name", "lq", "namespace", "team", "reason", "Deactivated",
                "underlying_cause", "MaximumExecutionTimeExceeded", "priority_class", "")).isEqualTo(1.0);
    }

    @Test
    void aFinishedWorkloadIsCountedWithItsPriorityClass() {
        AdmissionController controller = controller(false);
        BerthMetrics metrics = new BerthMetrics(new MetricsOptions(true, true), false);
        controller.setListener(metrics.admissionListener());
        submitBorrowingAndTooLarge(controller);
        controller.finish(dev.berth.manager.model.WorkloadKey.of("team", "borrower"), true, "Succeeded", "done");
        controller.schedule();

        PrometheusText scrape = scrape(metrics, controller);
        assertThat(scrape.value(MetricNames.FINISHED_WORKLOADS_TOTAL, "cluster_queue", "team", "priority_class", "high")).isEqualTo(1.0);
        assertThat(scrape.value(MetricNames.LOCAL_QUEUE_FINISHED_WORKLOADS_TOTAL, "name", "lq", "namespace", "team", "priority_class", "high"))
                .isEqualTo(1.0);
        assertThat(scrape.value(MetricNames.RESERVING_ACTIVE_WORKLOADS, "cluster_queue", "team")).isEqualTo(0.0);
    }
}
