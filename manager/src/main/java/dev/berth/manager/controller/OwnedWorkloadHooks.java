package dev.berth.manager.controller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.api.ObjectHooks;
import dev.berth.manager.objects.ContainerRequirements;
import dev.berth.manager.objects.JobDefaults;
import dev.berth.manager.objects.JobSuspension;
import dev.berth.manager.objects.JobUpdateRules;
import dev.berth.manager.objects.PriorityResolver;
import dev.berth.manager.objects.WorkloadDecoder;
import dev.berth.manager.store.AlreadyExistsException;
import dev.berth.manager.store.ObjectKey;
import dev.berth.manager.store.StoredObject;
import dev.berth.manager.core.WorkloadStatus;
import dev.berth.protocol.KubeflowJobKind;
import dev.berth.protocol.KueueApi;
import dev.berth.protocol.Labels;
import dev.berth.protocol.ServingKind;
import dev.berth.manager.objects.ServingScale;
import java.util.Optional;

/**
 * A job kind (batch/v1 Job, JobSet, PyTorchJob, MPIJob) that Kueue manages through a Workload it derives. The job is
 * validated by deriving its Workload before anything is stored; once the job is stored, the
 * Workload is created and queued. The Workload names the job in its ownerReferences, so deleting the
 * job collects it (or orphans it) as the request's propagationPolicy says (api.CascadingDelete).
 * Jobs without the queue-name label, and jobs of a framework that integrations.frameworks does not
 * enable, are stored and left alone, as Kueue does by default, unless a LocalQueue named default gives
 * them the label or manageJobsWithoutQueueName manages them ({@link ManagedJobs}).
 */
final class OwnedWorkloadHooks implements ObjectHooks {
    /** The batch kinds Kueue suspends on create and whose managedBy it defaults to MultiKueue: Job, the Kubeflow and Ray jobs, TrainJob, AppWrapper. */
    private static final java.util.Set<String> SUSPENDED_BATCH_KINDS = java.util.stream.Stream.concat(
            java.util.stream.Stream.of(KueueApi.JOB, dev.berth.protocol.TrainerApi.TRAIN_JOB, dev.berth.protocol.AppWrapperApi.KIND),
            java.util.stream.Stream.concat(KubeflowJobKind.ALL.stream().map(KubeflowJobKind::kind),
                    dev.berth.protocol.RayApi.ALL.stream().map(dev.berth.protocol.RayApi.Kind::kind))).collect(java.util.stream.Collectors.toUnmodifiableSet());

    interface Derivation {
        ObjectNode workloadFor(ObjectNode job, PriorityResolver priorities);
    }

    private final ManagerState state;
    private final StoredPriorities priorities;
    private final Derivation derivation;
    private final ManagedJobs managed;
    private final ServingWorkloadUpdates servingWorkloads;
    private final QueuedJobUpdates queuedJobs;

    OwnedWorkloadHooks(ManagerState state, StoredPriorities priorities, Derivation derivation) {
        this.state = state;
        this.priorities = priorities;
        this.derivation = derivation;
        this.managed = new ManagedJobs(state);
        this.servingWorkloads = new ServingWorkloadUpdates(state);
        this.queuedJobs = new QueuedJobUpdates(state);
    }

    @Override
    public ObjectNode admit(ObjectNode incoming, Optional<StoredObject> existing, Operation op) {
        if (incoming.path("kind").asText().equals(KueueApi.JOB)) ContainerRequirements.checkJob(incoming);
        if (op == Operation.CREATE) managed.defaultLocalQueue(incoming);
        boolean job = incoming.path("kind").asText().equals(Resources.JOBS.kind());
        if (job && op == Operation.CREATE) JobDefaults.onCreate(incoming);
        if (job && op == Operation.UPDATE) existing.ifPresent(stored -> {
            JobDefaults.onUpdate(incoming, stored.object());
            JobUpdateRules.check(stored.object(), incoming);
        });
        String kind = incoming.path("kind").asText();
        if (op == Operation.CREATE && kind.equals(dev.berth.protocol.AppWrapperApi.KIND)) {
            dev.berth.manager.objects.AppWrapperPodSets.declareInferred(incoming);
        }
        // Kueue's webhooks default managedBy to MultiKueue on the kinds that have the field, when the queue dispatches
        if (op == Operation.CREATE && SUSPENDED_BATCH_KINDS.contains(kind) && state.managed(incoming) && dispatchedByMultiKueue(incoming)) {
            if (job) JobDefaults.managedByMultiKueue(incoming, KueueApi.MULTIKUEUE_CONTROLLER);
            else JobSuspension.defaultManagedBy(incoming, KueueApi.MULTIKUEUE_CONTROLLER);
        }
        if (op == Operation.UPDATE && managed.manages(incoming)) {
            ServingKind.of(incoming.path("kind").asText())
                    .ifPresent(serving -> existing.ifPresent(stored -> ServingScale.checkUpdate(serving, stored.object(), incoming)));
        }
        // a managed job must still make a Workload after a write, before anything is stored: what stored() derives again
        if (managed.manages(incoming)) {
            ObjectNode probe = incoming.deepCopy();
            ((ObjectNode) probe.with("metadata")).put("uid", "00000000-0000-0000-0000-000000000000");
            WorkloadDecoder.request(derivation.workloadFor(probe, priorities), state.jobIntegration.resources());
        }
        if (op == Operation.CREATE && managed.manages(incoming)) {
            if (JobSuspension.hasSuspendField(incoming) || SUSPENDED_BATCH_KINDS.contains(kind)) JobSuspension.suspend(incoming, true);
        }
        if (op == Operation.UPDATE && JobSuspension.hasSuspendField(incoming) && !JobSuspension.isSuspended(incoming)) {
            existing.ifPresent(stored -> ManagedJobs.checkQueueUnchanged(stored.object(), incoming));
        }
        return incoming;
    }

    @Override
    public void stored(StoredObject object) {
        ObjectNode job = object.object();
        if (!managed.manages(job)) return;
        if (ServingKind.of(job.path("kind").asText()).isPresent()) {
            servingWorkloads.reconcile(object, derivation.workloadFor(job, priorities), this::create);
            return;
        }
        if (job.path("metadata").path("generation").asLong(1) > 1) {
            queuedJobs.reconcile(object, derivation.workloadFor(job, priorities), this::create);
            return;
        }
        create(object, derivation.workloadFor(job, priorities));
    }

    private void create(StoredObject object, ObjectNode workload) {
        String namespace = object.key().namespace();
        String name = workload.path("metadata").path("name").asText();
        ObjectKey key = new ObjectKey(Resources.WORKLOADS.resource(), namespace, name);
        try {
            StoredObject stored = state.store.create(key, workload);
            state.jobs.workloadCreated(object, name);
            ObjectNode written = stored.readOnlyObject();
            state.controller.submit(WorkloadDecoder.request(written, state.jobIntegration.resources()), WorkloadDecoder.active(written), WorkloadStatus.EMPTY);
            state.reschedule();
        } catch (AlreadyExistsException alreadyThere) {
            // a replayed create, or a write that did not change the spec (a label, an annotation): the workload may follow it
            queuedJobs.reconcile(object, workload, this::create);
        }
    }

    /** Whether the job's LocalQueue feeds a ClusterQueue with a MultiKueue admission check (Kueue's managedBy default). */
    private boolean dispatchedByMultiKueue(ObjectNode job) {
        String namespace = job.path("metadata").path("namespace").asText();
        String queue = job.path("metadata").path("labels").path(Labels.QUEUE_NAME).asText();
        String clusterQueue = state.look(Resources.LOCAL_QUEUES.resource(), namespace, queue)
                .map(lq -> lq.path("spec").path("clusterQueue").asText("")).orElse("");
        if (clusterQueue.isEmpty()) return false;
        JsonNode checks = state.look(Resources.CLUSTER_QUEUES.resource(), "", clusterQueue)
                .map(cq -> cq.path("spec").path("admissionChecksStrategy").path("admissionChecks"))
                .orElse(com.fasterxml.jackson.databind.node.MissingNode.getInstance());
        for (JsonNode check : checks) {
            boolean multiKueue = state.look(Resources.ADMISSION_CHECKS.resource(), "", check.path("name").asText())
                    .map(ac -> KueueApi.MULTIKUEUE_CONTROLLER.equals(ac.path("spec").path("controllerName").asText())).orElse(false);
            if (multiKueue) return true;
        }
        return false;
    }

    static boolean isQueued(ObjectNode job) {
        return ManagedJobs.queued(job);
    }
}
