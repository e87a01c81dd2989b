package dev.berth.manager.metrics;

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
 * as Kueue does.
 */
final class KueueQueueGauges {
    private final MultiGauge pending;
    private final MultiGauge status;
    private final MultiGauge usage;
    private final MultiGauge reservation;
    private final MultiGauge nominal;
    private final MultiGauge borrowingLimit;
    private final MultiGauge lendingLimit;

    KueueQueueGauges(MeterRegistry registry) {
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
        for (QueueMetrics.ClusterQueue queue : snapshot.clusterQueues()) {
            Tags cq = Tags.of(Label.CLUSTER_QUEUE, queue.name());
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
        pending.register(pendingRows, true);
        status.register(statusRows, true);
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
