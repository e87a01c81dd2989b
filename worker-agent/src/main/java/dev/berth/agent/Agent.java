package dev.berth.agent;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running agent: heartbeat and reconcile passes on one dedicated thread (blocking API calls stay
 * off the Vert.x event loop, and the fencing mark is touched by one thread only), passes reading the
 * informer caches of {@link ClusterCaches} and triggered by their events on RemoteWorkloads, the agent's
 * pods and objects as well as periodically, and the HTTP endpoints.
 */
public final class Agent {
    private static final Logger LOG = LoggerFactory.getLogger(Agent.class);

    private final KubernetesClient client;
    private final AgentConfig config;
    private final AgentHttp http;
    private final AgentMetrics metrics;
    private final AgentHealth health = new AgentHealth();
    private final FencingGuard fencing = new FencingGuard(0);
    private final Heartbeat heartbeat;
    private final RemoteWorkloadReconciler reconciler;
    private final ClusterCaches caches;
    private final ScheduledExecutorService loop;
    private final AtomicBoolean passQueued = new AtomicBoolean();
    private volatile boolean stopped;
    private boolean fencingRestored;
    private boolean waitingForCaches;

    public Agent(Vertx vertx, KubernetesClient client, AgentConfig config, Clock clock) {
        this.client = client;
        this.config = config;
        this.metrics = new AgentMetrics(config.name());
        AttemptObjects objects = new AttemptObjects(client, config.namespaceScope());
        this.caches = new ClusterCaches(client, config, this::trigger);
        this.reconciler = new RemoteWorkloadReconciler(client, config, objects, caches, fencing, new LeaseClock(clock), metrics);
        this.heartbeat = new Heartbeat(client, config, fencing, objects, caches, metrics, health, clock, reconciler::lastSnapshot);
        this.http = new AgentHttp(vertx, health, metrics);
        this.loop = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "berth-agent-" + config.name());
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * Starts the HTTP endpoints, restores the fencing mark, then the informers and loops. Completes with the HTTP port.
     * Everything that calls the API runs on the agent's own thread: a blocking fabric8 call on the event
     * loop that the fabric8 client itself uses would deadlock.
     */
    public Future<Integer> start() {
        return http.start(config.host(), config.port()).onSuccess(port -> {
            loop.scheduleWithFixedDelay(this::beat, 0, config.heartbeat().toMillis(), TimeUnit.MILLISECONDS);
            loop.scheduleWithFixedDelay(this::pass, 0, config.reconcileInterval().toMillis(), TimeUnit.MILLISECONDS);
            caches.start();
            LOG.atInfo().addKeyValue("cluster", config.name()).addKeyValue("port", port)
                    .addKeyValue("namespaceScope", config.namespaceScope().orElse("*")).log("agent started");
        });
    }

    /** Stops the agent; a pass or heartbeat in flight gets up to 10 s to finish. */
    public Future<Void> stop() {
        return stop(Duration.ofSeconds(10));
    }

    /**
     * Stops the agent; a pass or heartbeat in flight gets {@code grace} to finish and is then interrupted
     * (a call to a cluster that is already gone may otherwise sit in the client's retries).
     */
    public Future<Void> stop(Duration grace) {
        stopped = true;
        loop.shutdown();
        // Its own thread, not the common pool: on a 2-core machine that pool has one thread, and the
        // agents of one process would then wait for each other's loops one after the other.
        Executor waiter = task -> {
            Thread thread = new Thread(task, "berth-agent-stop-" + config.name());
            thread.setDaemon(true);
            thread.start();
        };
        return Future.fromCompletionStage(CompletableFuture.runAsync(() -> {
            awaitLoop(grace);
            caches.close(); // after the loop: a pass in flight reads the caches to its end
        }, waiter)).compose(v -> http.stop());
    }

    /** Lets a pass or heartbeat in flight finish, so the client is not closed under it. */
    private void awaitLoop(Duration grace) {
        try {
            if (!loop.awaitTermination(grace.toMillis(), TimeUnit.MILLISECONDS)) loop.shutdownNow();
        } catch (InterruptedException e) {
            loop.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    public AgentMetrics metrics() {
        return metrics;
    }

    public AgentHealth health() {
        return health;
    }

    /** Asks for a reconcile pass soon; requests while one is queued are folded into it. */
    public void trigger() {
        if (stopped || !passQueued.compareAndSet(false, true)) return;
        try {
            loop.execute(this::pass);
        } catch (RuntimeException e) {
            passQueued.set(false);
        }
    }

    private void pass() {
        passQueued.set(false);
        if (stopped) return;
        if (!fencingRestored) restoreFencingMark();
        if (!fencingRestored) return;
        if (!cachesReady()) return;
        try {
            reconciler.reconcile();
        } catch (RuntimeException e) {
            LOG.atWarn().addKeyValue("cluster", config.name()).addKeyValue("error", e.toString()).log("reconcile pass failed");
        }
    }

    private void beat() {
        if (!stopped) heartbeat.beat();
    }

    /** No attempt is judged before the mark a previous run persisted is known: an older epoch must not slip in after a restart. */
    private void restoreFencingMark() {
        try {
            heartbeat.persistedFencingEpoch().ifPresent(fencing::accept);
            fencingRestored = true;
        } catch (RuntimeException e) {
            LOG.atWarn().addKeyValue("cluster", config.name()).addKeyValue("error", e.toString()).log("could not read the persisted fencing epoch");
        }
    }

    /** No pass runs on caches that have not synced: an empty cache would look like a cluster with nothing on it. */
    private boolean cachesReady() {
        boolean ready = caches.ready();
        if (ready == waitingForCaches) {
            waitingForCaches = !ready;
            LOG.atInfo().addKeyValue("cluster", config.name()).log(ready ? "caches synced; passes run" : "waiting for the caches to sync");
        }
        return ready;
    }
}
