package dev.berth.manager.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.api.ObjectHooks;
import dev.berth.manager.objects.ContainerRequirements;
import dev.berth.manager.objects.PriorityResolver;
import dev.berth.manager.objects.WorkloadDecoder;
import dev.berth.manager.store.AlreadyExistsException;
import dev.berth.manager.store.ObjectKey;
import dev.berth.manager.store.StoredObject;
import dev.berth.manager.core.WorkloadStatus;
import dev.berth.protocol.KueueApi;
import dev.berth.protocol.Labels;
import java.util.Optional;

/**
 * A job kind (batch/v1 Job, JobSet) that Kueue manages through a Workload it derives. The job is
 * validated by deriving its Workload before anything is stored; once the job is stored, the
 * Workload is created and queued. The Workload names the job in its ownerReferences, so deleting the
 * job collects it (or orphans it) as the request's propagationPolicy says (api.CascadingDelete).
 * Jobs without the queue-name label are stored and left alone, as Kueue does by default.
 */
final class OwnedWorkloadHooks implements ObjectHooks {
    interface Derivation {
        ObjectNode workloadFor(ObjectNode job, PriorityResolver priorities);
    }

    private final ManagerState state;
    private final StoredPriorities priorities;
    private final Derivation derivation;

    OwnedWorkloadHooks(ManagerState state, StoredPriorities priorities, Derivation derivation) {
        this.state = state;
        this.priorities = priorities;
        this.derivation = derivation;
    }

    @Override
    public ObjectNode admit(ObjectNode incoming, Optional<StoredObject> existing, Operation op) {
        if (incoming.path("kind").asText().equals(KueueApi.JOB)) ContainerRequirements.checkJob(incoming);
        if (op == Operation.CREATE && isQueued(incoming)) {
            ObjectNode probe = incoming.deepCopy();
            ((ObjectNode) probe.with("metadata")).put("uid", "00000000-0000-0000-0000-000000000000");
            WorkloadDecoder.request(derivation.workloadFor(probe, priorities));
            ObjectNode spec = incoming.with("spec");
            if (spec.has("suspend") || incoming.path("kind").asText().equals("Job")) spec.put("suspend", true);
        }
        return incoming;
    }

    @Override
    public void stored(StoredObject object) {
        ObjectNode job = object.object();
        if (!isQueued(job) || job.path("metadata").path("generation").asLong(1) > 1) return;
        ObjectNode workload = derivation.workloadFor(job, priorities);
        String namespace = object.key().namespace();
        String name = workload.path("metadata").path("name").asText();
        ObjectKey key = new ObjectKey(Resources.WORKLOADS.resource(), namespace, name);
        try {
            StoredObject stored = state.store.create(key, workload);
            state.controller.submit(WorkloadDecoder.request(stored.object()), WorkloadDecoder.active(stored.object()), WorkloadStatus.EMPTY);
            state.reschedule();
        } catch (AlreadyExistsException alreadyThere) {
            // A replayed create: the workload is already queued.
        }
    }

    static boolean isQueued(ObjectNode job) {
        return !job.path("metadata").path("labels").path(Labels.QUEUE_NAME).asText("").isEmpty();
    }
}
