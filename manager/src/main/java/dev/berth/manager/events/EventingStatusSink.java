package dev.berth.manager.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.core.QueueStatus;
import dev.berth.manager.core.StatusSink;
import dev.berth.manager.core.WorkloadStatus;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.store.ObjectKey;
import dev.berth.manager.store.ObjectStore;
import dev.berth.manager.store.StoredObject;
import dev.berth.protocol.KueueApi;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wraps the sink that stores the controller's status and records Events for what it wrote: each
 * workload transition (quota reserved, admitted, pending, preempted, evicted, finished) on the
 * Workload and, summarized, on its ClusterQueue and LocalQueue; and each change of a queue's Active
 * condition on the queue. An event that cannot be recorded is logged and dropped; it never undoes
 * the status change.
 */
public final class EventingStatusSink implements StatusSink {
    private static final Logger log = LoggerFactory.getLogger(EventingStatusSink.class);

    /** The store resources (paths) of the kinds whose changes are recorded. */
    public record Resources(String workloads, String clusterQueues, String localQueues) {}

    private final StatusSink delegate;
    private final ObjectStore store;
    private final Resources resources;
    private final EventRecorder recorder;
    private final Clock clock;

    public EventingStatusSink(StatusSink delegate, ObjectStore store, Resources resources, EventRecorder recorder, Clock clock) {
        this.delegate = delegate;
        this.store = store;
        this.resources = resources;
        this.recorder = recorder;
        this.clock = clock;
    }

    @Override
    public void workloadChanged(WorkloadKey key, boolean active, WorkloadStatus status) {
        Optional<StoredObject> before = store.get(new ObjectKey(resources.workloads(), key.namespace(), key.name()));
        delegate.workloadChanged(key, active, status);
        if (before.isEmpty()) return;
        ObjectNode previous = before.get().readOnlyObject(); // only read: status, uid, queue name
        JsonNode previousStatus = previous.path("status");
        EventRecorder.InvolvedObject involved = new EventRecorder.InvolvedObject(KueueApi.API_VERSION, KueueApi.WORKLOAD,
                key.namespace(), key.name(), previous.path("metadata").path("uid").asText());
        record(involved, WorkloadTransitions.between(previousStatus, status, clock.instant()), key.toString());
        List<WorkloadEvent> queueEvents = QueueTransitions.forWorkload(key.namespace() + "/" + key.name(), previousStatus, status);
        if (queueEvents.isEmpty()) return;
        String clusterQueue = status.admission() != null ? status.admission().clusterQueue()
                : previousStatus.path("admission").path("clusterQueue").asText("");
        if (!clusterQueue.isEmpty()) {
            queue(resources.clusterQueues(), KueueApi.CLUSTER_QUEUE, "", clusterQueue)
                    .ifPresent(queue -> record(queue, queueEvents, key.toString()));
        }
        String localQueue = previous.path("spec").path("queueName").asText("");
        if (!localQueue.isEmpty()) {
            queue(resources.localQueues(), KueueApi.LOCAL_QUEUE, key.namespace(), localQueue)
                    .ifPresent(queue -> record(queue, queueEvents, key.toString()));
        }
    }

    @Override
    public void clusterQueueChanged(String name, QueueStatus status) {
        Optional<StoredObject> before = store.get(new ObjectKey(resources.clusterQueues(), "", name));
        delegate.clusterQueueChanged(name, status);
        before.ifPresent(stored -> activity(stored.readOnlyObject(), KueueApi.CLUSTER_QUEUE, "", name, status));
    }

    @Override
    public void cohortChanged(String name, dev.berth.manager.core.CohortStatus status) {
        delegate.cohortChanged(name, status);
    }

    @Override
    public void localQueueChanged(String namespace, String name, QueueStatus status) {
        Optional<StoredObject> before = store.get(new ObjectKey(resources.localQueues(), namespace, name));
        delegate.localQueueChanged(namespace, name, status);
        before.ifPresent(stored -> activity(stored.readOnlyObject(), KueueApi.LOCAL_QUEUE, namespace, name, status));
    }

    @Override
    public void workloadExpired(WorkloadKey key) {
        delegate.workloadExpired(key);
    }

    @Override
    public void deactivatedWorkloadExpired(WorkloadKey key) {
        delegate.deactivatedWorkloadExpired(key);
    }

    private void activity(ObjectNode previous, String kind, String namespace, String name, QueueStatus status) {
        String stopPolicy = previous.path("spec").path("stopPolicy").asText("");
        QueueTransitions.activity(previous.path("status"), status, stopPolicy).ifPresent(event -> record(
                involved(kind, namespace, name, previous), List.of(event), kind + " " + (namespace.isEmpty() ? name : namespace + "/" + name)));
    }

    private Optional<EventRecorder.InvolvedObject> queue(String resource, String kind, String namespace, String name) {
        return store.get(new ObjectKey(resource, namespace, name)).map(stored -> involved(kind, namespace, name, stored.readOnlyObject()));
    }

    private static EventRecorder.InvolvedObject involved(String kind, String namespace, String name, JsonNode object) {
        return new EventRecorder.InvolvedObject(KueueApi.API_VERSION, kind, namespace, name,
                object.path("metadata").path("uid").asText());
    }

    private void record(EventRecorder.InvolvedObject involved, List<WorkloadEvent> events, String concerning) {
        for (WorkloadEvent event : events) {
            try {
                recorder.record(involved, event);
            } catch (RuntimeException e) {
                log.atWarn().setMessage("could not record an event").addKeyValue("object", concerning)
                        .addKeyValue("kind", involved.kind()).addKeyValue("reason", event.reason()).setCause(e).log();
            }
        }
    }
}
