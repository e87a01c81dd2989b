package dev.berth.manager.metrics;

import dev.berth.manager.core.MetricsOptions;
import dev.berth.manager.core.QueueMetrics;
import dev.berth.protocol.MetricNames;
import dev.berth.protocol.MetricNames.Label;
import dev.berth.protocol.MetricNames.Values;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.List;

/**
 * Kueue's per-ClusterQueue gauges, replaced as a whole from each {@link QueueMetrics} snapshot: a
 * deleted queue's series disappear with it, as in Kueue. Limits that are not set are reported as 0,
 * as Kueue does. As in Kueue, the per-flavor gauges and the weighted share are served only with
 * {@code clusterQueueResources}, and the weighted shares only with fair sharing on.
 * kueue_finished_workloads is not served: in the Prometheus client's data model its name is the
 * family of the counter kueue_finished_workloads_total, and a registry keeps one of the two.
 */
final class KueueQueueGauges {
    private final MultiGauge pending;
    private final MultiGauge status;
    private final MultiGauge usage;
    private final MultiGauge reservation;
    private final MultiGauge nominal;
    private final MultiGauge borrowingLimit;
    private final MultiGauge lendingLimit;
    private final MultiGauge reserving;
    private final MultiGauge admittedActive;
    /** Null when not served. */
    private final MultiGauge weightedShare;
    private final MultiGauge cohortWeightedShare;
    private final boolean resources;

    KueueQueueGauges(MeterRegistry registry, MetricsOptions options, boolean fairSharing) {
        resources = options.clusterQueueResources();
        reserving = gauge(registry, MetricNames.RESERVING_ACTIVE_WORKLOADS, "The number of Workloads that are reserving quota, per 'cluster_queue'");
        admittedActive = gauge(registry, MetricNames.ADMITTED_ACTIVE_WORKLOADS,
                "The number of admitted Workloads that are active (unsuspended and not finished), per 'cluster_queue'");
        weightedShare = fairSharing && resources ? gauge(registry, MetricNames.CLUSTER_QUEUE_WEIGHTED_SHARE,
                "Reports a value that representing the maximum of the ratios of usage above nominal quota to the lendable "
                        + "resources in the cohort, among all the resources provided by the ClusterQueue, and divided by the weight. "
                        + "If zero, it means that the usage of the ClusterQueue is below the nominal quota. "
                        + "If the ClusterQueue has a weight of zero and is borrowing, this will return NaN.") : null;
        cohortWeightedShare = fairSharing ? gauge(registry, MetricNames.COHORT_WEIGHTED_SHARE,
                "Reports a value that representing the maximum of the ratios of usage above nominal quota to the lendable "
                        + "resources in the Cohort, among all the resources provided by the Cohort, and divided by the weight. "
                        + "If zero, it means that the usage of the Cohort is below the nominal quota. "
                        + "If the Cohort has a weight of zero and is borrowing, this will return NaN.") : null;
        pending = gauge(registry, MetricNames.PENDING_WORKLOADS,
                "The number of pending workloads, per 'cluster_queue' and 'status' (active: in the admission queue; "
                        + "inadmissible: waiting for cluster conditions to change)");
        status = gauge(registry, MetricNames.CLUSTER_QUEUE_STATUS,
                "Reports 'cluster_queue' with its 'status' (pending, active or terminating); 1 for exactly one status");
        usage = gauge(registry, MetricNames.CLUSTER_QUEUE_RESOURCE_USAGE,
                "Reports the cluster_queue's total resource usage within all the flavors");
        reservation = gauge(registry, MetricNames.CLUSTER_QUEUE_RESOURCE_RESERVATION,
                "Reports the cluster_queue's total resource reservation within all the flavors");
        nominal = gauge(registry, MetricNames.CLUSTER_QUEUE_NOMINAL_QUOTA,
                "Reports the cluster_queue's resource nominal quota within all the flavors");
        borrowingLimit = gauge(registry, MetricNames.CLUSTER_QUEUE_BORROWING_LIMIT,
                "Reports the cluster_queue's resource borrowing limit within all the flavors");
        lendingLimit = gauge(registry, MetricNames.CLUSTER_QUEUE_LENDING_LIMIT,
                "Reports the cluster_queue's resource lending limit within all the flavors");
    }

    private static MultiGauge gauge(MeterRegistry registry, String name, String description) {
        return MultiGauge.builder(name).description(description).register(registry);
    }

    void update(QueueMetrics snapshot) {
        List<MultiGauge.Row<?>> pendingRows = new ArrayList<>();
        List<MultiGauge.Row<?>> statusRows = new ArrayList<>();
        List<MultiGauge.Row<?>> usageRows = new ArrayList<>();
        List<MultiGauge.Row<?>> reservationRows = new ArrayList<>();
        List<MultiGauge.Row<?>> nominalRows = new ArrayList<>();
        List<MultiGauge.Row<?>> borrowingRows = new ArrayList<>();
        List<MultiGauge.Row<?>> lendingRows = new ArrayList<>();
        List<MultiGauge.Row<?>> reservingRows = new ArrayList<>();
        List<MultiGauge.Row<?>> admittedRows = new ArrayList<>();
        List<MultiGauge.Row<?>> shareRows = new ArrayList<>();
        for (QueueMetrics.ClusterQueue queue : snapshot.clusterQueues()) {
            Tags cq = Tags.of(Label.CLUSTER_QUEUE, queue.name());
            reservingRows.add(MultiGauge.Row.of(cq, queue.reservingWorkloads()));
            admittedRows.add(MultiGauge.Row.of(cq, queue.admittedWorkloads()));
            // Kueue reports a zero weight that borrows as NaN on this gauge (and +Inf on the cohort's).
            double share = queue.weightedShare() == Double.POSITIVE_INFINITY ? Double.NaN : queue.weightedShare();
            shareRows.add(MultiGauge.Row.of(cq.and(Label.COHORT, queue.cohort()), share));
            pendingRows.add(MultiGauge.Row.of(cq.and(Label.STATUS, Values.PENDING_ACTIVE), queue.pendingActive()));
            pendingRows.add(MultiGauge.Row.of(cq.and(Label.STATUS, Values.PENDING_INADMISSIBLE), queue.pendingInadmissible()));
            statusRows.add(MultiGauge.Row.of(cq.and(Label.STATUS, Values.CQ_PENDING), oneIf(queue.status() == QueueMetrics.Status.PENDING)));
            statusRows.add(MultiGauge.Row.of(cq.and(Label.STATUS, Values.CQ_ACTIVE), oneIf(queue.status() == QueueMetrics.Status.ACTIVE)));
            statusRows.add(MultiGauge.Row.of(cq.and(Label.STATUS, Values.CQ_TERMINATING),
                    oneIf(queue.status() == QueueMetrics.Status.TERMINATING)));
            for (QueueMetrics.Resource resource : queue.resources()) {
                Tags tags = Tags.of(Label.COHORT, queue.cohort(), Label.CLUSTER_QUEUE, queue.name(),
                        Label.FLAVOR, resource.flavor(), Label.RESOURCE, resource.resource());
                String name = resource.resource();
                usageRows.add(MultiGauge.Row.of(tags, ResourceAmount.of(name, resource.usage())));
                reservationRows.add(MultiGauge.Row.of(tags, ResourceAmount.of(name, resource.reservation())));
                nominalRows.add(MultiGauge.Row.of(tags, ResourceAmount.of(name, resource.nominal())));
                borrowingRows.add(MultiGauge.Row.of(tags, ResourceAmount.of(name, orZero(resource.borrowingLimit()))));
                lendingRows.add(MultiGauge.Row.of(tags, ResourceAmount.of(name, orZero(resource.lendingLimit()))));
            }
        }
        reserving.register(reservingRows, true);
        admittedActive.register(admittedRows, true);
        if (weightedShare != null) weightedShare.register(shareRows, true);
        if (cohortWeightedShare != null) {
            List<MultiGauge.Row<?>> cohortRows = new ArrayList<>();
            for (QueueMetrics.Cohort cohort : snapshot.cohorts()) {
                cohortRows.add(MultiGauge.Row.of(Tags.of(Label.COHORT, cohort.name()), cohort.weightedShare()));
            }
            cohortWeightedShare.register(cohortRows, true);
        }
        pending.register(pendingRows, true);
        status.register(statusRows, true);
        if (!resources) return;
        usage.register(usageRows, true);
        reservation.register(reservationRows, true);
        nominal.register(nominalRows, true);
        borrowingLimit.register(borrowingRows, true);
        lendingLimit.register(lendingRows, true);
    }

    private static int oneIf(boolean condition) {
        return condition ? 1 : 0;
    }

    private static long orZero(Long limit) {
        return limit == null ? 0 : limit;
    }
}
