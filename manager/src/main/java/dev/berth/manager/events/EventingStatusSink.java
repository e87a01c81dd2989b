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
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wraps the sink that stores the controller's status and records an Event for each workload
 * transition it wrote (quota reserved, admitted, pending, preempted, evicted, finished). An event
 * that cannot be recorded is logged and dropped; it never undoes the status change.
 */
public final class EventingStatusSink implements StatusSink {
    private static final Logger log = LoggerFactory.getLogger(EventingStatusSink.class);

    private final StatusSink delegate;
    private final ObjectStore store;
    private final String workloadResource;
    private final EventRecorder recorder;
    private final Clock clock;

    public EventingStatusSink(StatusSink delegate, ObjectStore store, String workloadResource, EventRecorder recorder, Clock clock) {
        this.delegate = delegate;
        this.store = store;
        this.workloadResource = workloadResource;
        this.recorder = recorder;
        this.clock = clock;
    }

    @Override
    public void workloadChanged(WorkloadKey key, boolean active, WorkloadStatus status) {
        Optional<StoredObject> before = store.get(new ObjectKey(workloadResource, key.namespace(), key.name()));
        delegate.workloadChanged(key, active, status);
        if (before.isEmpty()) return;
        ObjectNode previous = before.get().object();
        JsonNode metadata = previous.path("metadata");
        EventRecorder.InvolvedObject involved = new EventRecorder.InvolvedObject(KueueApi.API_VERSION, KueueApi.WORKLOAD,
                key.namespace(), key.name(), metadata.path("uid").asText());
        for (WorkloadEvent event : WorkloadTransitions.between(previous.path("status"), status, clock.instant())) {
            try {
                recorder.record(involved, event);
            } catch (RuntimeException e) {
                log.atWarn().setMessage("could not record an event").addKeyValue("workload", key)
                        .addKeyValue("reason", event.reason()).setCause(e).log();
            }
        }
    }

    @Override
    public void clusterQueueChanged(String name, QueueStatus status) {
        delegate.clusterQueueChanged(name, status);
    }

    @Override
    public void localQueueChanged(String namespace, String name, QueueStatus status) {
        delegate.localQueueChanged(namespace, name, status);
    }

    @Override
    public void workloadExpired(WorkloadKey key) {
        delegate.workloadExpired(key);
    }
}
