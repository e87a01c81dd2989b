package dev.berth.manager.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.core.AdmissionController;
import dev.berth.manager.store.ObjectKey;
import dev.berth.manager.store.ObjectStore;
import dev.berth.manager.store.StoredObject;
import java.util.Optional;

/**
 * What every kind's hooks share: the store and the admission controller. Lives on the state thread.
 * After every accepted change the hooks call {@link #reschedule()}; the pass that decides it runs
 * within the scheduling batch window.
 */
final class ManagerState {
    final ObjectStore store;
    AdmissionController controller;
    /** Null until dispatch is wired. */
    Dispatcher dispatcher;
    /** Null until dispatch is wired. */
    MultiKueueHooks multiKueue;
    /** ProvisioningRequestConfigs and provisioning checks (set with the registry). */
    ProvisioningHooks provisioning;
    /** Holds deletions of ResourceFlavors, ClusterQueues and AdmissionChecks in use (set with the registry). */
    ResourceInUse resourceInUse;
    /** Follows workloads onto the jobs that own them; null on a follower's API. */
    JobFollower jobs;
    /** The RBAC policy, rebuilt from the store when a role or binding is written. */
    final dev.berth.manager.security.RbacPolicySource rbac;
    /** Kueue's resources and manageJobsWithoutQueueName settings, as the manager was started with. */
    final JobIntegrationSettings jobIntegration;

    /** Which job kinds get Workloads (Kueue's integrations.frameworks); every served kind by default. */
    dev.berth.manager.objects.IntegrationFrameworks frameworks = dev.berth.manager.objects.IntegrationFrameworks.ALL_SERVED;

    /** Whether this job (Job, JobSet, Pod) is Kueue's to manage: it names a queue and its framework is enabled. */
    boolean managed(ObjectNode job) {
        return OwnedWorkloadHooks.isQueued(job) && frameworks.managesKind(job.path("kind").asText());
    }

    ManagerState(ObjectStore store) {
        this(store, JobIntegrationSettings.DEFAULTS);
    }

    ManagerState(ObjectStore store, JobIntegrationSettings jobIntegration) {
        this.store = store;
        this.rbac = new dev.berth.manager.security.RbacPolicySource(store);
        this.jobIntegration = jobIntegration;
    }

    /** Runs a task on the state thread after a delay; the manager's single state thread, or a test's queue. */
    interface StateThread {
        void runLater(Runnable task, long delayMillis);
    }

    /**
     * Where batched passes and the rest of a long pass run. Null (a follower's API, unit tests of the
     * hooks) decides every change at once, in a whole pass.
     */
    StateThread stateThread;
    /** {@link dev.berth.manager.core.SchedulerOptions#schedulingBatchWindow()}, in milliseconds. */
    long batchWindowMillis;
    private boolean passQueued;

    /**
     * Something changed that may let workloads in or out: schedule, then dispatch what was admitted.
     * With a batch window, the pass starts that long after the first change asks for it, and decides
     * every change that arrived meanwhile; without one, the first slice runs here, before the write
     * is answered. A pass longer than one slice goes on in later state-thread tasks
     * (see {@link AdmissionController#scheduleSlice()}).
     */
    void reschedule() {
        if (stateThread != null && batchWindowMillis > 0) {
            queuePass(batchWindowMillis);
        } else {
            runSlice();
        }
    }

    private void runSlice() {
        // the slice's writes and the dispatcher's (attempt records, check states) share one journal sync; the
        // creates they announce leave only after it (the worker clusters' send gate, RemoteCreates)
        inOneSync(() -> {
            scheduleSlice();
            if (dispatcher != null) dispatcher.reconcile();
        });
        if (stateThread != null && controller.hasMoreToSchedule()) queuePass(0);
    }

    /** Runs state-thread work whose writes share one journal sync (group commit); durable when it returns. */
    void inOneSync(Runnable work) {
        store.inOneSync(() -> {
            work.run();
            return null;
        });
    }

    private void queuePass(long delayMillis) {
        if (passQueued) return;
        passQueued = true;
        try {
            stateThread.runLater(() -> {
                passQueued = false;
                runSlice();
            }, delayMillis);
        } catch (java.util.concurrent.RejectedExecutionException closing) {
            passQueued = false; // the manager is shutting down; a restart schedules from scratch
        }
    }

    /** One slice of the current pass, or the whole pass where nothing would run the rest; its writes durable when it returns. */
    void scheduleSlice() {
        // the slice's status writes and events share one journal sync (group commit), done before the dispatcher acts on them
        store.inOneSync(() -> {
            if (stateThread == null) controller.schedule(); else controller.scheduleSlice();
            return null;
        });
    }

    Optional<ObjectNode> find(String resource, String namespace, String name) {
        return store.get(new ObjectKey(resource, namespace, name)).map(StoredObject::object);
    }
}
