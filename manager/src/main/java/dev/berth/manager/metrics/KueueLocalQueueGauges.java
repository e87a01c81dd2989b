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
 * Kueue's per-LocalQueue gauges (served behind its LocalQueueMetrics feature gate), labelled
 * {@code name} and {@code namespace} as in Kueue, replaced as a whole from each snapshot so that a
 * deleted LocalQueue's series disappear with it. kueue_local_queue_finished_workloads is not served:
 * its name is the family name of the counter kueue_local_queue_finished_workloads_total in the
 * Prometheus client's data model, which keeps one of the two (see docs/operations.md).
 */
final class KueueLocalQueueGauges {
    private static final List<String> CONDITION_STATUSES = List.of("True", "False", "Unknown");

    private final MultiGauge pending;
    private final MultiGauge reserving;
    private final MultiGauge admitted;
    private final MultiGauge status;
    private final MultiGauge reservation;
    private final MultiGauge usage;

    KueueLocalQueueGauges(MeterRegistry registry) {
        pending = gauge(registry, MetricNames.LOCAL_QUEUE_PENDING_WORKLOADS,
                "The number of pending workloads, per 'local_queue' and 'status' (active: in the admission queue; "
                        + "inadmissible: waiting for cluster conditions to change)");
        reserving = gauge(registry, MetricNames.LOCAL_QUEUE_RESERVING_ACTIVE_WORKLOADS,
                "The number of Workloads that are reserving quota, per 'localQueue'");
        admitted = gauge(registry, MetricNames.LOCAL_QUEUE_ADMITTED_ACTIVE_WORKLOADS,
                "The number of admitted Workloads that are active (unsuspended and not finished), per 'localQueue'");
        status = gauge(registry, MetricNames.LOCAL_QUEUE_STATUS,
                "Reports 'localQueue' with its 'active' status (with possible values 'True', 'False', or 'Unknown'); 1 for exactly one status");
        reservation = gauge(registry, MetricNames.LOCAL_QUEUE_RESOURCE_RESERVATION,
                "Reports the localQueue's total resource reservation within all the flavors");
        usage = gauge(registry, MetricNames.LOCAL_QUEUE_RESOURCE_USAGE, "Reports the localQueue's total resource usage within all the flavors");
    }

    private static MultiGauge gauge(MeterRegistry registry, String name, String description) {
        return MultiGauge.builder(name).description(description).register(registry);
    }

    void update(QueueMetrics snapshot) {
        List<MultiGauge.Row<?>> pendingRows = new ArrayList<>();
        List<MultiGauge.Row<?>> reservingRows = new ArrayList<>();
        List<MultiGauge.Row<?>> admittedRows = new ArrayList<>();
        List<MultiGauge.Row<?>> statusRows = new ArrayList<>();
        List<MultiGauge.Row<?>> reservationRows = new ArrayList<>();
        List<MultiGauge.Row<?>> usageRows = new ArrayList<>();
        for (QueueMetrics.LocalQueue queue : snapshot.localQueues()) {
            Tags lq = Tags.of(Label.NAME, queue.name(), Label.NAMESPACE, queue.namespace());
            pendingRows.add(MultiGauge.Row.of(lq.and(Label.STATUS, Values.PENDING_ACTIVE), queue.pendingActive()));
            pendingRows.add(MultiGauge.Row.of(lq.and(Label.STATUS, Values.PENDING_INADMISSIBLE), queue.pendingInadmissible()));
            reservingRows.add(MultiGauge.Row.of(lq, queue.reservingWorkloads()));
            admittedRows.add(MultiGauge.Row.of(lq, queue.admittedWorkloads()));
            for (String candidate : CONDITION_STATUSES) {
                statusRows.add(MultiGauge.Row.of(lq.and(Label.ACTIVE, candidate), candidate.equals(queue.active()) ? 1 : 0));
            }
            for (QueueMetrics.LocalResource resource : queue.resources()) {
                Tags tags = lq.and(Label.FLAVOR, resource.flavor(), Label.RESOURCE, resource.resource());
                reservationRows.add(MultiGauge.Row.of(tags, ResourceAmount.of(resource.resource(), resource.reservation())));
                usageRows.add(MultiGauge.Row.of(tags, ResourceAmount.of(resource.resource(), resource.usage())));
            }
        }
        pending.register(pendingRows, true);
        reserving.register(reservingRows, true);
        admitted.register(admittedRows, true);
        status.register(statusRows, true);
        reservation.register(reservationRows, true);
        usage.register(usageRows, true);
    }
}
