package dev.berth.manager.controller;

import dev.berth.manager.api.NamespaceLifecycle;
import dev.berth.manager.api.ObjectService;
import dev.berth.manager.clusters.GroupedStateThread;
import dev.berth.manager.clusters.WorkerClusters;
import dev.berth.manager.core.AdmissionController;
import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.events.EventOptions;
import dev.berth.manager.events.EventRecorder;
import dev.berth.manager.events.EventingStatusSink;
import dev.berth.manager.store.ChangeFeedStore;
import dev.berth.manager.store.ObjectStore;
import dev.berth.manager.dispatch.DispatchListener;
import dev.berth.manager.objects.IntegrationFrameworks;
import dev.berth.manager.security.RbacPolicySource;
import java.time.Clock;
import java.util.Optional;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The manager side of a dispatch scenario: the real store, AdmissionController, DispatchController and its collaborators,
 * and the real {@link WorkerClusters}, wired as {@link BerthManager} wires them, minus Vert.x, HTTP and threads.
 * The state thread is a queue the scenario drains ({@link #settle}); the timers are methods the scenario calls
 * when its clock passes their period ({@link #poll}, {@link #renewLeases}, {@link #housekeeping}).
 */
final class ScenarioManager {
    final ManagerState state;
    private final DispatchController dispatcher;
    final ObjectService api;
    final WorkerClusters clusters;
    final long epoch;
    private final Deque<Runnable> stateThread;
    private final EventRecorder events;
    private final Clock clock;

    private ScenarioManager(ManagerState state, DispatchController dispatcher, ObjectService api, WorkerClusters clusters, long epoch,
                            Deque<Runnable> stateThread, EventRecorder events, Clock clock) {
        this.state = state;
        this.dispatcher = dispatcher;
        this.api = api;
        this.clusters = clusters;
        this.epoch = epoch;
        this.stateThread = stateThread;
        this.events = events;
        this.clock = clock;
    }

    /**
     * THE one place the manager-side objects are built, in BerthManager's order (its constructor, then start()):
     * epoch, fenced change feed, state, admission controller with the status sinks, API objects, state recovery,
     * dispatcher and its recovery, first pass, worker clusters. When the composition root changes how BerthManager
     * wires the DispatchController, this method follows it, and nothing else in the scenarios needs to.
     */
    static ScenarioManager start(ObjectStore store, Clock clock, DispatchOptions options) {
        long epoch = ManagerEpoch.next(store);
        ChangeFeedStore feed = new ChangeFeedStore(store.fenced(ManagerEpoch.fence(epoch)));
        EventRecorder events = new EventRecorder(feed, clock, EventOptions.DEFAULTS);
        DispatchLink dispatch = new DispatchLink();
        AdmissionController[] controllerOf = new AdmissionController[1];
        JobFollower jobs = new JobFollower(new StoreStatusSink(feed, dispatch, key -> controllerOf[0].delete(key)), feed, events, clock);
        AdmissionController controller = new AdmissionController(clock, SchedulerOptions.DEFAULTS, new EventingStatusSink(jobs, feed,
                new EventingStatusSink.Resources(Resources.WORKLOADS.resource(), Resources.CLUSTER_QUEUES.resource(),
                        Resources.LOCAL_QUEUES.resource()), events, clock), dispatch);
        controllerOf[0] = controller;
        // no state thread for passes: a change decides at once, in a whole pass, as BerthManager's without a batch window
        SchedulingPasses passes = new SchedulingPasses(feed, controller, Optional.empty(), 0, dispatch);
        ManagerState state = new ManagerState(feed, new RbacPolicySource(feed), JobIntegrationSettings.DEFAULTS,
                IntegrationFrameworks.ALL_SERVED, controller, jobs, passes);
        Deque<Runnable> tasks = new ArrayDeque<>();
        GroupedStateThread stateThread = new GroupedStateThread() {
            @Override
            public void execute(Runnable task) {
                tasks.add(() -> state.inOneSync(task));
            }

            @Override
            public void whenDurable(Runnable send) {
                feed.whenDurable(send);
            }
        };
        ClusterEventsLink clusterEvents = new ClusterEventsLink();
        WorkerClusters clusters = new WorkerClusters(stateThread, clusterEvents, options.managerId(), clock,
                options.resilience(), options.failover().health());
        ManagerResources.Hooks hooks = ManagerResources.hooks(state, clusters, clusterEvents);
        ObjectService api = new ObjectService(feed, hooks.registry(), new NamespaceLifecycle(feed), clock);
        NamespaceBootstrap.ensureNamespaces(feed, api.registry().types());
        var storedWorkloads = StateRecovery.recover(store, state.controller, JobIntegrationSettings.DEFAULTS.resources());
        DispatchController dispatcher = new DispatchController(state, clusters, clock, options, epoch, DispatchListener.NONE,
                new StoredClusterActionEvents(state, events));
        dispatch.register(dispatcher);
        clusterEvents.register(dispatcher);
        dispatcher.recover(storedWorkloads);
        NamespaceBootstrap.finishTerminations(feed, api);
        state.controller.schedule();
        dispatcher.start();
        hooks.multiKueue().connectStored();
        return new ScenarioManager(state, dispatcher, api, clusters, epoch, tasks, events, clock);
    }

    DispatchController dispatcher() {
        return dispatcher;
    }

    /** Runs the state thread's queue until it is empty (answers, cluster events, the work they start). */
    void settle() {
        for (int ran = 0; !stateThread.isEmpty(); ran++) {
            if (ran > 10_000) throw new IllegalStateException("the state thread never settles: a loop of tasks");
            stateThread.poll().run();
        }
    }

    /** Runs work on the state thread, in a journal group as BerthManager's grouped tasks, and settles. */
    void onStateThread(Runnable work) {
        stateThread.add(() -> state.inOneSync(work));
        settle();
    }

    /** BerthManager's housekeeping timer (every second). */
    void housekeeping() {
        onStateThread(() -> {
            state.reschedule();
            events.expire(clock.instant());
        });
    }

    /** BerthManager's poll timer (every poll interval). */
    void poll() {
        onStateThread(() -> {
            clusters.pollAll();
            dispatcher.failover.evictFromLostClusters();
            dispatcher.withdrawals.poll();
            dispatcher.renewals.retryFailed();
        });
    }

    /** BerthManager's lease timer (every lease / 3). */
    void renewLeases() {
        onStateThread(() -> {
            dispatcher.renewals.renewAll();
            dispatcher.widenIncrementalAttempts();
        });
    }

    /** The operator's cordon and drain marks, as MultiKueueHooks applies a MultiKueueCluster's annotations. */
    void mark(String cluster, boolean cordoned, boolean draining) {
        onStateThread(() -> {
            boolean wasCordoned = clusters.isCordoned(cluster);
            boolean wasDraining = clusters.isDraining(cluster);
            // as MultiKueueHooks does for an annotated MultiKueueCluster (the fakes are connected without one)
            clusters.setOperatorMarks(cluster, cordoned, draining);
            if (cordoned != wasCordoned || draining != wasDraining) dispatcher.operatorMarksChanged(cluster, cordoned, draining, wasCordoned, wasDraining);
        });
    }
}
