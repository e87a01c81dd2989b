package dev.berth.manager.server;

import dev.berth.manager.api.ApiServer;
import dev.berth.manager.clusters.WorkerClusters;
import dev.berth.manager.api.ManifestReader;
import dev.berth.manager.api.ObjectService;
import dev.berth.manager.core.AdmissionController;
import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.security.edge.SecureServer;
import dev.berth.manager.store.ObjectStore;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
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

    private final ObjectStore store;
    private final ExecutorService stateThread = Executors.newSingleThreadExecutor(r -> {
        Thread thread = new Thread(r, "berth-state");
        thread.setDaemon(true);
        return thread;
    });
    private final ObjectService service;
    private final ManagerState state;
    private Vertx vertx;
    private HttpServer server;
    private long housekeepingTimer = -1;
    private long pollTimer = -1;
    private long leaseTimer = -1;
    private final DispatchOptions dispatchOptions;
    private WorkerClusters workerClusters;
    private dev.berth.manager.security.SecurityOptions security;
    private final Clock clock;

    public BerthManager(ObjectStore store, Clock clock, SchedulerOptions options) {
        this(store, clock, options, DispatchOptions.DEFAULTS);
    }

    public BerthManager(ObjectStore store, Clock clock, SchedulerOptions options, DispatchOptions dispatchOptions) {
        this.store = store;
        this.clock = clock;
        this.dispatchOptions = dispatchOptions;
        this.state = new ManagerState(store);
        this.state.controller = new AdmissionController(clock, options, new StoreStatusSink(state));
        this.service = new ObjectService(store, ManagerResources.registry(state));
        onStateThread(() -> {
            StateRecovery.recover(store, state.controller);
            state.controller.schedule();
            state.dispatcher = new Dispatcher(state, clock, dispatchOptions, ManagerEpoch.next(store));
            state.dispatcher.recover();
            return null;
        });
    }

    /** Starts serving on host:port (0 picks a free port), and dispatching to the worker clusters. */
    public Future<HttpServer> start(Vertx vertx, String host, int port) {
        this.vertx = vertx;
        housekeepingTimer = vertx.setPeriodic(1000, id -> stateThread.execute(state::reschedule));
        onStateThread(() -> {
            workerClusters = new WorkerClusters(vertx, stateThread, state.dispatcher, dispatchOptions.managerId());
            state.dispatcher.clusters = workerClusters;
            state.multiKueue.attach(workerClusters);
            return null;
        });
        pollTimer = vertx.setPeriodic(Math.max(10, dispatchOptions.pollInterval().toMillis()),
                id -> stateThread.execute(workerClusters::pollAll));
        leaseTimer = vertx.setPeriodic(Math.max(10, dispatchOptions.leaseDuration().toMillis() / 3),
                id -> stateThread.execute(() -> {
                    state.dispatcher.renewLeases();
                    state.dispatcher.widenIncrementalAttempts();
                }));
        if (security == null) return new ApiServer(service, stateThread).start(vertx, host, port).onSuccess(s -> this.server = s);
        return new ApiServer(service, stateThread, ApiServer.DEFAULT_BODY_LIMIT_BYTES, SecureServer.security(security, state.rbac, clock))
                .start(vertx, host, port, SecureServer.serverOptions(security)).onSuccess(s -> this.server = s);
    }

    /** Before {@link #start}: authenticate, authorize, rate-limit and audit every API request; serve HTTPS if configured. */
    public BerthManager secure(dev.berth.manager.security.SecurityOptions options) {
        this.security = options;
        return this;
    }

    /** The fencing epoch of this manager run. */
    public long fencingEpoch() {
        return onStateThread(() -> state.dispatcher.epoch());
    }

    public int port() {
        return server.actualPort();
    }

    /** Creates every object in the YAML files of a directory (sorted by name, recursively); existing objects are kept. */
    public int loadManifests(Path directory) throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(directory)) {
            files = walk.filter(p -> p.toString().endsWith(".yaml") || p.toString().endsWith(".yml")).sorted().toList();
        }
        int created = 0;
        for (Path file : files) {
            byte[] body = Files.readAllBytes(file);
            created += onStateThread(() -> {
                int count = 0;
                for (var object : ManifestReader.read(body, "application/yaml")) {
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
    public <T> T onStateThread(java.util.concurrent.Callable<T> work) {
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
        if (vertx != null && housekeepingTimer >= 0) vertx.cancelTimer(housekeepingTimer);
        if (vertx != null && pollTimer >= 0) vertx.cancelTimer(pollTimer);
        if (vertx != null && leaseTimer >= 0) vertx.cancelTimer(leaseTimer);
        if (workerClusters != null) onStateThread(() -> {
            workerClusters.close();
            return null;
        });
        if (server != null) server.close().await();
        stateThread.shutdown();
        try {
            stateThread.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        store.close();
    }
}
