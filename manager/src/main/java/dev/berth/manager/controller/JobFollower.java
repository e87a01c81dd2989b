package dev.berth.manager.controller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.core.QueueStatus;
import dev.berth.manager.core.StatusSink;
import dev.berth.manager.core.WorkloadStatus;
import dev.berth.manager.events.EventRecorder;
import dev.berth.manager.events.JobTransitions;
import dev.berth.manager.events.WorkloadEvent;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.objects.JobSuspension;
import dev.berth.manager.objects.SuspendedJobStatus;
import dev.berth.manager.store.NotFoundException;
import dev.berth.manager.store.ObjectKey;
import dev.berth.manager.store.ObjectStore;
import dev.berth.manager.store.StoredObject;
import dev.berth.protocol.Events;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kueue's job reconciler for the jobs on the manager: after the workload's status is stored, the
 * owning Job or JobSet is unsuspended once admitted and suspended again when evicted
 * ({@link JobTransitions}), a Job's status carries the Suspended condition a Job controller would
 * write, and Kueue's events are recorded on the job itself (involvedObject kind Job, the Job's uid),
 * where {@code kubectl describe job} finds them. The remote Job's status replaces the rest as the
 * dispatcher mirrors it.
 */
final class JobFollower implements StatusSink, OwnedJobs {
    private static final Logger log = LoggerFactory.getLogger(JobFollower.class);

    private final StatusSink delegate;
    private final ObjectStore store;
    private final EventRecorder events;
    private final Clock clock;

    JobFollower(StatusSink delegate, ObjectStore store, EventRecorder events, Clock clock) {
        this.delegate = delegate;
        this.store = store;
        this.events = events;
        this.clock = clock;
    }

    /** A queued job's Workload was just created: Kueue's CreatedWorkload event, and a Job shows Suspended. */
    @Override
    public void workloadCreated(StoredObject job, String workloadName) {
        record(job, List.of(new WorkloadEvent(Events.NORMAL, Events.JobReasons.CREATED_WORKLOAD,
                "Created Workload: " + job.key().namespace() + "/" + workloadName)));
        JsonNode object = job.readOnlyObject();
        if (isJob(object) && object.path("spec").path("suspend").asBoolean(false)) {
            writeStatus(job.key(), SuspendedJobStatus.suspended(object.path("status"), clock.instant()));
        }
    }

    @Override
    public void workloadChanged(WorkloadKey key, boolean active, WorkloadStatus status) {
        Optional<ObjectNode> workload = workload(key);
        JsonNode previousStatus = workload.map(w -> w.path("status")).orElse(null);
        delegate.workloadChanged(key, active, status);
        Optional<ObjectKey> owner = workload.flatMap(RemoteWorkloads::ownerKey);
        if (owner.isEmpty()) return;
        Optional<StoredObject> job = store.get(owner.get());
        if (job.isEmpty()) return;
        boolean suspended = JobSuspension.isSuspended(job.get().readOnlyObject());
        JobTransitions.FollowUp followUp = JobTransitions.follow(key.toString(), previousStatus, status, suspended);
        if (followUp.suspend() != null) suspend(job.get(), followUp.suspend());
        record(job.get(), followUp.events());
    }

    private void suspend(StoredObject job, boolean suspend) {
        ObjectNode object = job.object();
        JobSuspension.suspend(object, suspend);
        try {
            StoredObject written = store.replace(job.key(), object, null);
            if (!isJob(written.readOnlyObject())) return;
            JsonNode status = written.readOnlyObject().path("status");
            writeStatus(job.key(), suspend ? SuspendedJobStatus.suspended(status, clock.instant())
                    : SuspendedJobStatus.resumed(status, clock.instant()));
        } catch (NotFoundException deleted) {
            // the job was deleted meanwhile; its workload goes with it
        }
    }

    private void writeStatus(ObjectKey key, ObjectNode status) {
        try {
            store.get(key).filter(stored -> !status.equals(stored.readOnlyObject().path("status")))
                    .ifPresent(stored -> store.replaceStatus(key, status, null));
        } catch (NotFoundException deleted) {
            // deleted meanwhile
        }
    }

    private void record(StoredObject job, List<WorkloadEvent> happened) {
        if (events == null) return;
        JsonNode object = job.readOnlyObject();
        String kind = object.path("kind").asText(isJobResource(job.key()) ? Resources.JOBS.kind() : Resources.JOBSETS.kind());
        String apiVersion = object.path("apiVersion").asText("");
        EventRecorder.InvolvedObject involved = new EventRecorder.InvolvedObject(apiVersion, kind, job.key().namespace(),
                job.key().name(), object.path("metadata").path("uid").asText());
        for (WorkloadEvent event : happened) {
            try {
                events.record(involved, event);
            } catch (RuntimeException e) {
                log.atWarn().setMessage("could not record an event").addKeyValue("object", job.key().namespace() + "/" + job.key().name())
                        .addKeyValue("kind", kind).addKeyValue("reason", event.reason()).setCause(e).log();
            }
        }
    }

    /** The stored Workload's shared tree: only looked at, never changed. */
    private Optional<ObjectNode> workload(WorkloadKey key) {
        return store.get(new ObjectKey(Resources.WORKLOADS.resource(), key.namespace(), key.name())).map(StoredObject::readOnlyObject);
    }

    private static boolean isJob(JsonNode object) {
        return Resources.JOBS.kind().equals(object.path("kind").asText());
    }

    private static boolean isJobResource(ObjectKey key) {
        return key.resource().equals(Resources.JOBS.resource());
    }

    @Override
    public void clusterQueueChanged(String name, QueueStatus status) {
        delegate.clusterQueueChanged(name, status);
    }

    @Override
    public void cohortChanged(String name, dev.berth.manager.core.CohortStatus status) {
        delegate.cohortChanged(name, status);
    }

    @Override
    public void localQueueChanged(String namespace, String name, QueueStatus status) {
        delegate.localQueueChanged(namespace, name, status);
    }

    @Override
    public void workloadExpired(WorkloadKey key) {
        delegate.workloadExpired(key);
    }

    /** Kueue deletes the job of a workload deactivated past its retention; the workload goes with it. */
    @Override
    public void deactivatedWorkloadExpired(WorkloadKey key) {
        Optional<ObjectKey> owner = workload(key).flatMap(RemoteWorkloads::ownerKey);
        owner.ifPresent(job -> {
            try {
                store.delete(job);
                log.atInfo().addKeyValue("workload", key).addKeyValue("job", job.name())
                        .log("deleted job: deactivation retention period expired");
            } catch (NotFoundException gone) {
                // deleted already
            }
        });
        delegate.workloadExpired(key);
    }
}
