package dev.berth.manager.controller;

import dev.berth.manager.DaemonThreads;
import dev.berth.manager.api.ApiServer;
import dev.berth.manager.api.GracefulShutdown;
import dev.berth.manager.api.HealthEndpoints;
import dev.berth.manager.clusters.StandbyClients;
import dev.berth.manager.clusters.GroupedStateThread;
import dev.berth.manager.clusters.WorkerClusters;
import dev.berth.manager.api.ManifestReader;
import dev.berth.manager.api.NamespaceLifecycle;
import dev.berth.manager.api.NamespaceObjectCounts;
import dev.berth.manager.api.ObjectCountLimits;
import dev.berth.manager.api.ObjectService;
import dev.berth.manager.api.WatchHub;
import dev.berth.manager.events.EventOptions;
import dev.berth.manager.events.EventRecorder;
import dev.berth.manager.events.EventingStatusSink;
import dev.berth.manager.store.ChangeFeedStore;
import dev.berth.manager.core.AdmissionController;
import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.dashboard.DashboardAssets;
import dev.berth.manager.dashboard.DashboardEventSource;
import dev.berth.manager.dashboard.DashboardRoutes;
import dev.berth.manager.dashboard.DashboardStream;
import dev.berth.manager.dashboard.StoredEvents;
import dev.berth.manager.metrics.BerthMetrics;
import dev.berth.manager.metrics.MetricsEndpoint;
import dev.berth.manager.dispatch.ClusterHealthSnapshot;
import dev.berth.manager.security.SecurityOptions;
import dev.berth.manager.security.edge.AccessReviewRoutes;
import dev.berth.manager.security.edge.ApiSecurity;
import dev.berth.manager.security.edge.DashboardSignInRoutes;
import dev.berth.manager.security.edge.FrontProxyIdentity;
import dev.berth.manager.security.edge.SecureServer;
import io.vertx.core.http.HttpServerOptions;
import dev.berth.manager.store.ObjectStore;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.objects.IntegrationFrameworks;
import dev.berth.manager.security.RbacPolicySource;
import java.util.Optional;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Route;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running manager: the store, the admission controller and the API, with every state change
 * confined to a single state thread. Used by {@link BerthMain} and by end-to-end tests.
 */
public final class BerthManager implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(BerthManager.class);
    /** How long a scrape waits for the state thread to refresh the gauges before serving the last ones. */
    private static final Duration METRICS_REFRESH_BOUND = Duration.ofSeconds(5);
    /** The dashboard's live feed: at most one snapshot per interval, a heartbeat comment, a bounded wait on the state thread. */
    private static final Duration DASHBOARD_INTERVAL = Duration.ofMillis(500);
    private static final Duration DASHBOARD_HEARTBEAT = Duration.ofSeconds(15);
    private static final Duration DASHBOARD_BOUND = Duration.ofSeconds(5);

    private final ObjectStore store;
    private final Clock clock;
    private final WatchHub watches;
    private final EventRecorder events;
    private final StateThreadExecutor stateThread = new StateThreadExecutor("berth-state");
    /** Only hands batched scheduling passes to the state thread when their window ends. */
    private final java.util.concurrent.ScheduledExecutorService batchTimer =
            Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("berth-schedule-timer"));
    private final ObjectService service;
    /** Plain API reads, when the store shows only durable writes (PostgreSQL); null otherwise. */
    private ExecutorService readThread;
    private final NamespaceObjectCounts objectCounts;
    private final ManagerState state;
    private final ManagerResources.Hooks hooks;
    private final DispatchController dispatcher;
    private Vertx vertx;
    private HttpServer server;
    private ApiServer api;
    private long housekeepingTimer = -1;
    private long pollTimer = -1;
    private long leaseTimer = -1;
    private final DispatchOptions dispatchOptions;
    private final WorkerClusters workerClusters;
    private final BerthMetrics metrics;
    private boolean closesStore = true;
    private Duration shutdownDelay = GracefulShutdown.DEFAULT_DELAY;
    private SecurityOptions security;
    private FrontProxyIdentity frontProxy = FrontProxyIdentity.NONE;
    private GracefulShutdown replicaShutdown;
    private volatile DashboardEventSource dashboardEvents;

    public BerthManager(ObjectStore store, Clock clock, SchedulerOptions options) {
        this(store, clock, options, DispatchOptions.DEFAULTS);
    }

    public BerthManager(ObjectStore store, Clock clock, SchedulerOptions options, DispatchOptions dispatchOptions) {
        this(store, clock, options, dispatchOptions, JobIntegrationSettings.DEFAULTS);
    }

    /** With Kueue's resources and manageJobsWithoutQueueName settings ({@link JobIntegrationSettings}). */
    public BerthManager(ObjectStore store, Clock clock, SchedulerOptions options, DispatchOptions dispatchOptions,
                        JobIntegrationSettings jobIntegration) {
        this(store, clock, options, dispatchOptions, jobIntegration, IntegrationFrameworks.ALL_SERVED);
    }

    /**
     * The composition root, {@code frameworks} being Kueue's integrations.frameworks. Every collaborator is built once, final,
     * in the order the data flows: store, RBAC and settings, the job follower under the admission controller's status writer,
     * the controller, the pass runner, hooks and registry, then the dispatcher, registered as the admission side's {@link DispatchPort}.
     */
    public BerthManager(ObjectStore store, Clock clock, SchedulerOptions options, DispatchOptions dispatchOptions,
                        JobIntegrationSettings jobIntegration, IntegrationFrameworks frameworks) {
        long began = System.nanoTime();
        long epoch = ManagerEpoch.next(store);
        long epochRaised = System.nanoTime();
        // groups do not wait for their journal sync on the state thread; what they made is told there once durable
        ChangeFeedStore feed = new ChangeFeedStore(store.fenced(ManagerEpoch.fence(epoch)), stateThread);
        this.store = feed;
        this.clock = clock;
        this.dispatchOptions = dispatchOptions;
        this.metrics = new BerthMetrics(options.metrics(), options.fairSharing());
        stateThread.reportTo(metrics::stateThreadTask);
        this.watches = new WatchHub(feed, WatchHub.DEFAULT_HISTORY);
        feed.listenOnceDurable(watches); // watchers hear of a grouped write once it is durable
        this.events = new EventRecorder(feed, clock, EventOptions.DEFAULTS);
        RbacPolicySource rbac = new RbacPolicySource(feed);
        // admission tells dispatch through this link; the dispatcher is registered on it once recovered (below)
        DispatchLink dispatch = new DispatchLink();
        JobFollower jobs = new JobFollower(new StoreStatusSink(feed, dispatch, this::forgetExpired), feed, events, clock);
        AdmissionController controller = new AdmissionController(clock, options, new EventingStatusSink(
                jobs, feed, new EventingStatusSink.Resources(Resources.WORKLOADS.resource(),
                Resources.CLUSTER_QUEUES.resource(), Resources.LOCAL_QUEUES.resource()), events, clock), dispatch);
        controller.setListener(metrics.admissionListener());
        SchedulingPasses passes = new SchedulingPasses(feed, controller, Optional.of(this::runOnStateThread),
                options.schedulingBatchWindow().toMillis(), dispatch);
        this.state = new ManagerState(feed, rbac, jobIntegration, frameworks, controller, jobs, passes);
        // the worker clusters report to the dispatcher through this link; it is registered once the dispatcher exists (below)
        ClusterEventsLink clusterEvents = new ClusterEventsLink();
        this.workerClusters = new WorkerClusters(groupedStateThread(), clusterEvents, dispatchOptions.managerId(), clock,
                dispatchOptions.resilience(), dispatchOptions.failover().health());
        this.hooks = ManagerResources.hooks(state, workerClusters, clusterEvents);
        this.objectCounts = new NamespaceObjectCounts(feed, ObjectCountLimits.DEFAULTS);
        feed.listen(objectCounts);
        this.service = new ObjectService(feed, hooks.registry(), new NamespaceLifecycle(feed).then(objectCounts), clock);
        this.dashboardEvents = new StoredEvents(feed, service.registry());
        long constructed = System.nanoTime();
        this.dispatcher = onStateThread(() -> {
            long namespacing = System.nanoTime();
            NamespaceBootstrap.ensureNamespaces(feed, service.registry().types());
            long recovering = System.nanoTime();
            var storedWorkloads = StateRecovery.recover(store, state.controller, jobIntegration.resources());
            long recovered = System.nanoTime();
            // The dispatcher exists before the first pass, so it hears of every reservation that pass
            // makes: a submission acknowledged by a previous leader whose pass never ran is dispatched.
            DispatchController dispatcher = new DispatchController(state, workerClusters, clock, dispatchOptions, epoch, metrics.dispatchListener(),
                    new StoredClusterActionEvents(state, events));
            dispatch.register(dispatcher);
            clusterEvents.register(dispatcher);
            dispatcher.recover(storedWorkloads);
            NamespaceBootstrap.finishTerminations(feed, service);
            long dispatcherRecovered = System.nanoTime();
            state.controller.schedule();
            log.atInfo().addKeyValue("epoch", epoch).addKeyValue("epochMillis", (epochRaised - began) / 1_000_000)
                    .addKeyValue("untilRecoveryMillis", (recovering - epochRaised) / 1_000_000)
                    .addKeyValue("constructMillis", (constructed - epochRaised) / 1_000_000)
                    .addKeyValue("namespacesMillis", (recovering - namespacing) / 1_000_000)
                    .addKeyValue("stateRecoveryMillis", (recovered - recovering) / 1_000_000)
                    .addKeyValue("dispatcherRecoveryMillis", (dispatcherRecovered - recovered) / 1_000_000)
                    .addKeyValue("firstPassMillis", (System.nanoTime() - dispatcherRecovered) / 1_000_000)
                    .log("manager state rebuilt from the store");
            return dispatcher;
        });
    }

    /** The controller's status writer deleted an expired workload: the controller forgets it (the one edge back into it). */
    private void forgetExpired(WorkloadKey key) {
        state.controller.delete(key);
    }

    /**
     * Work the manager starts itself (timers, cluster events and answers) runs in journal groups: its writes share one
     * sync per task, and every call that changes a worker cluster waits for that sync (the clusters' send gate).
     */
    private GroupedStateThread groupedStateThread() {
        return new GroupedStateThread() {
            @Override
            public void execute(Runnable task) {
                stateThread.execute(() -> state.inOneSync(task));
            }

            @Override
            public void whenDurable(Runnable send) {
                store.whenDurable(send);
            }
        };
    }

    /** Where batched passes and the rest of a long pass run: the state thread, after the delay. */
    private void runOnStateThread(Runnable task, long delayMillis) {
        if (delayMillis <= 0) stateThread.execute(task);
        else batchTimer.schedule(() -> stateThread.execute(task), delayMillis, TimeUnit.MILLISECONDS);
    }

    /** Starts serving on host:port (0 picks a free port), and dispatching to the worker clusters. */
    public Future<HttpServer> start(Vertx vertx, String host, int port) {
        this.vertx = vertx;
        GroupedStateThread grouped = groupedStateThread();
        housekeepingTimer = vertx.setPeriodic(1000, id -> grouped.execute(() -> {
            state.reschedule();
            hooks.inUse().releaseFreed(service);
            events.expire(clock.instant());
        }));
        onStateThread(() -> {
            dispatcher.start();
            hooks.multiKueue().connectStored();
            return null;
        });
        pollTimer = vertx.setPeriodic(Math.max(10, dispatchOptions.pollInterval().toMillis()),
                id -> grouped.execute(() -> {
                    workerClusters.pollAll();
                    dispatcher.failover.evictFromLostClusters();
                    dispatcher.withdrawals.poll();
                    dispatcher.renewals.retryFailed();
                }));
        leaseTimer = vertx.setPeriodic(dispatchOptions.renewEvery().toMillis(),
                id -> grouped.execute(() -> {
                    dispatcher.renewals.renewAll();
                    dispatcher.widenIncrementalAttempts();
                }));
        WorkerClustersView clusterRows = new WorkerClustersView(state, dispatcher, workerClusters, clock, dispatchOptions);
        VisibilityEndpoints visibility = new VisibilityEndpoints(state, dispatcher, stateThread, clusterRows);
        MetricsEndpoint metricsEndpoint = new MetricsEndpoint(metrics, this::refreshMetrics, METRICS_REFRESH_BOUND);
        ApiSecurity apiSecurity = security == null ? ApiSecurity.limitsOnly()
                : SecureServer.security(security, state.rbac, clock).withFrontProxy(frontProxy);
        HttpServerOptions serverOptions = security == null ? new HttpServerOptions() : SecureServer.serverOptions(security);
        DashboardFeed dashboardFeed = new DashboardFeed(state, dispatcher, clusterRows, () -> dashboardEvents, stateThread);
        DashboardRoutes dashboard = new DashboardRoutes(new DashboardStream(dashboardFeed::snapshot, DASHBOARD_INTERVAL,
                DASHBOARD_HEARTBEAT, DASHBOARD_BOUND, apiSecurity.edge().dashboardStreamsPerUser(), apiSecurity.edge().dashboardStreams(),
                apiSecurity::streamOwner), new DashboardAssets());
        api = new ApiServer(service, stateThread, ApiServer.DEFAULT_BODY_LIMIT_BYTES, watches, clock, apiSecurity);
        api.shutdown().timing(shutdownDelay, GracefulShutdown.DEFAULT_DRAIN_BOUND).following(replicaShutdown);
        api.health().with(new HealthEndpoints.Check("store", store::failure))
                .with(new HealthEndpoints.Check("store-readiness", store::unreachable, true));
        if (store.readsShowOnlyDurableWrites()) {
            // GET and LIST from the store, as followers read, so a busy state thread (a takeover) delays no read
            readThread = Executors.newSingleThreadExecutor(DaemonThreads.named("berth-api-reads"));
            api.readingFromTheStore(new ObjectService(store, service.registry()), readThread);
        }
        return api.withRoutes(metricsEndpoint::register)
                .withRoutes(visibility::mount)
                .withRoutes(new DashboardSignInRoutes(apiSecurity)::mount)
                .withRoutes(dashboard::register)
                .withRoutes(new AccessReviewRoutes(state.rbac, apiSecurity, clock)::mount)
                .start(vertx, host, port, serverOptions).onSuccess(s -> this.server = s);
    }

    /** Before {@link #start}: adopt the worker-cluster clients this replica kept warm while it followed, instead of building them. */
    public BerthManager adoptingWarmClients(StandbyClients standby) {
        workerClusters.adoptWarmClients(standby);
        return this;
    }

    /** Before start, as a replica's leader: callers' identities from its loopback front proxy too; not ready once it stops. */
    public BerthManager leadingFor(FrontProxyIdentity trusted, GracefulShutdown replicaShutdown) {
        this.frontProxy = trusted;
        this.replicaShutdown = replicaShutdown;
        return this;
    }

    /** Before {@link #start}: authenticate, authorize, rate-limit and audit every API request; serve HTTPS if configured. */
    public BerthManager secure(SecurityOptions options) {
        this.security = options;
        return this;
    }

    /** Once a shutdown begins, keep serving this long with /readyz failing (kube-apiserver's --shutdown-delay-duration). */
    public BerthManager shutdownDelay(Duration delay) {
        this.shutdownDelay = delay;
        return this;
    }

    /** How many objects of each resource one namespace may hold (default {@link ObjectCountLimits#DEFAULTS}). */
    public BerthManager objectCountLimits(ObjectCountLimits limits) {
        objectCounts.limits(limits);
        return this;
    }

    /** Where the dashboard reads its event stream (default: the core/v1 Events in the store, if served). */
    public void dashboardEvents(DashboardEventSource source) {
        this.dashboardEvents = source;
    }

    /** The manager's metrics registry: other binders (resilience4j, Vert.x) add their meters here. */
    public BerthMetrics metrics() {
        return metrics;
    }

    private CompletableFuture<?> refreshMetrics() {
        return CompletableFuture.runAsync(() -> metrics.refresh(state.controller.queueMetrics(), workerClusters.views()), stateThread);
    }

    /** Every worker cluster's health (health, breaker, last heartbeat, lost since, cordoned): safe from any thread, for gauges. */
    public List<ClusterHealthSnapshot> clusterHealth() {
        return workerClusters.snapshots();
    }

    /** Leaves the store open on {@link #close()}: a replica that outlives its leadership keeps using it. */
    public BerthManager leavingStoreOpen() {
        closesStore = false;
        return this;
    }

    /** The fencing epoch of this manager run. */
    public long fencingEpoch() {
        return onStateThread(dispatcher::epoch);
    }

    public int port() {
        return server.actualPort();
    }

    /** Every route the API port serves, as its router holds them (tests enumerate them); empty before {@link #start}. */
    public List<Route> routes() {
        return api == null ? List.of() : api.routes();
    }

    /** Creates every object in the YAML files of a directory (sorted by name, recursively); existing objects are kept. */
    public int loadManifests(Path directory) throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(directory)) {
            files = walk.filter(p -> p.toString().endsWith(".yaml") || p.toString().endsWith(".yml")).sorted().toList();
        }
        int created = 0;
        // Namespaces first, wherever they are: the objects of a directory may live in the namespaces it creates.
        for (boolean namespaces : new boolean[] {true, false}) for (Path file : files) {
            byte[] body = Files.readAllBytes(file);
            created += onStateThread(() -> {
                int count = 0;
                for (var object : ManifestReader.read(body, "application/yaml")) {
                    if (Resources.NAMESPACES.kind().equals(object.path("kind").asText()) != namespaces) continue;
                    try {
                        service.createAll(List.of(object));
                        count++;
                    } catch (RuntimeException alreadyThereOrInvalid) {
                        log.atInfo().addKeyValue("file", file.toString()).log("skipped an object: " + alreadyThereOrInvalid.getMessage());
                    }
                }
                return count;
            });
        }
        return created;
    }

    /** Runs a piece of work on the state thread and waits for it (bounded). */
    public <T> T onStateThread(Callable<T> work) {
        try {
            return CompletableFuture.supplyAsync(() -> {
                try {
                    return work.call();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, stateThread).get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("state thread work failed", e);
        }
    }

    @Override
    public void close() {
        if (server != null) api.shutdown().beginAndServeForTheDelay(); // a stepping-down leader has no delay: fenced at once
        if (vertx != null && housekeepingTimer >= 0) vertx.cancelTimer(housekeepingTimer);
        if (vertx != null && pollTimer >= 0) vertx.cancelTimer(pollTimer);
        if (vertx != null && leaseTimer >= 0) vertx.cancelTimer(leaseTimer);
        onStateThread(Executors.callable(workerClusters::close));
        if (server != null) api.drain(server);
        batchTimer.shutdownNow();
        if (readThread != null) readThread.shutdown();
        stateThread.shutdown();
        try {
            stateThread.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (closesStore) store.close();
    }
}
