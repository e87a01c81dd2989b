package dev.berth.manager.controller;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.core.AdmissionController;
import dev.berth.manager.core.QueueStatus;
import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.core.StatusSink;
import dev.berth.manager.core.WorkloadStatus;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.objects.IntegrationFrameworks;
import dev.berth.manager.security.RbacPolicySource;
import dev.berth.manager.store.ObjectKey;
import dev.berth.manager.store.ObjectStore;
import dev.berth.manager.store.StoredObject;
import java.time.Clock;
import java.util.Optional;

/**
 * What every kind's hooks share, built once by the composition root ({@link BerthManager}) in the order the
 * data flows: the store, the RBAC policy and settings, the admission controller, the job follower, and the
 * pass runner. Lives on the state thread. After every accepted change the hooks call {@link #reschedule()};
 * the pass that decides it runs within the scheduling batch window.
 */
final class ManagerState {
    /** Discards every result: for a controller that decides but never writes (a read-only API, a takeover rehearsal). */
    static final StatusSink DISCARD = new StatusSink() {
        @Override
        public void workloadChanged(WorkloadKey key, boolean active, WorkloadStatus status) {
        }

        @Override
        public void clusterQueueChanged(String name, QueueStatus status) {
        }

        @Override
        public void localQueueChanged(String namespace, String name, QueueStatus status) {
        }

        @Override
        public void workloadExpired(WorkloadKey key) {
        }
    };

    final ObjectStore store;
    /** The RBAC policy, rebuilt from the store when a role or binding is written. */
    final RbacPolicySource rbac;
    /** Kueue's resources and manageJobsWithoutQueueName settings, as the manager was started with. */
    final JobIntegrationSettings jobIntegration;
    /** Which job kinds get Workloads (Kueue's integrations.frameworks); every served kind by default. */
    final IntegrationFrameworks frameworks;
    final AdmissionController controller;
    /** Follows workloads onto the jobs that own them; {@link OwnedJobs#NONE} on an API that only reads. */
    final OwnedJobs jobs;
    /** When passes run, and dispatch after them. */
    final SchedulingPasses passes;

    ManagerState(ObjectStore store, RbacPolicySource rbac, JobIntegrationSettings jobIntegration, IntegrationFrameworks frameworks,
                 AdmissionController controller, OwnedJobs jobs, SchedulingPasses passes) {
        this.store = store;
        this.rbac = rbac;
        this.jobIntegration = jobIntegration;
        this.frameworks = frameworks;
        this.controller = controller;
        this.jobs = jobs;
        this.passes = passes;
    }

    /**
     * For an API that only reads (a follower's, the leader's read thread) and for warming or testing the
     * hooks: a controller that knows nothing and writes nothing, no job follower, every pass whole and at
     * once, nothing dispatched.
     */
    static ManagerState readOnly(ObjectStore store, JobIntegrationSettings jobIntegration) {
        AdmissionController idle = new AdmissionController(Clock.systemUTC(), SchedulerOptions.DEFAULTS, DISCARD);
        return new ManagerState(store, new RbacPolicySource(store), jobIntegration, IntegrationFrameworks.ALL_SERVED, idle,
                OwnedJobs.NONE, SchedulingPasses.inline(store, idle));
    }

    static ManagerState readOnly(ObjectStore store) {
        return readOnly(store, JobIntegrationSettings.DEFAULTS);
    }

    /** Whether this job (Job, JobSet, Pod) is Kueue's to manage: it names a queue and its framework is enabled. */
    boolean managed(ObjectNode job) {
        return OwnedWorkloadHooks.isQueued(job) && frameworks.managesKind(job.path("kind").asText());
    }

    /** Asks for a scheduling pass, then dispatch ({@link SchedulingPasses#reschedule()}). */
    void reschedule() {
        passes.reschedule();
    }

    /** Runs state-thread work whose writes share one journal sync (group commit); durable when it returns. */
    void inOneSync(Runnable work) {
        passes.inOneSync(work);
    }

    /** A fresh copy of the stored object, the caller's to change. */
    Optional<ObjectNode> find(String resource, String namespace, String name) {
        return store.get(new ObjectKey(resource, namespace, name)).map(StoredObject::object);
    }

    /** The stored object's shared tree ({@link StoredObject#readOnlyObject}), for callers that only read a few fields. */
    Optional<ObjectNode> look(String resource, String namespace, String name) {
        return store.get(new ObjectKey(resource, namespace, name)).map(StoredObject::readOnlyObject);
    }
}
