package dev.berth.manager.clusters;

import dev.berth.manager.DaemonThreads;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.manager.dispatch.ClusterView;
import dev.berth.protocol.Annotations;
import dev.berth.protocol.crd.CapacityReport;
import dev.berth.protocol.crd.RemoteWorkload;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import dev.berth.manager.dispatch.ClusterHealth;
import dev.berth.manager.dispatch.ClusterHealthPolicy;
import dev.berth.manager.dispatch.ClusterHealthSnapshot;
import dev.berth.manager.dispatch.HealthAssessment;
import dev.berth.manager.dispatch.HealthOptions;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One fabric8 client per MultiKueueCluster, built from its kubeconfig on a Vert.x of its own ({@link ClusterClient}). On
 * connect it writes the flavor catalogue; then every poll it reads the agent's heartbeat Lease
 * (freshness and CapacityReport) and lists this manager's RemoteWorkloads. Remote calls run off
 * the state thread; every result hops back to the state thread before {@link ClusterEvents} hear it.
 * The public methods must be called on the state thread.
 */
public final class WorkerClusters implements ClusterConnections, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(WorkerClusters.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Builds cluster clients (reads kubeconfigs, creates each client's Vert.x): plain daemon threads, never a Vert.x one. */
    static final ExecutorService CONNECTING = Executors.newCachedThreadPool(DaemonThreads.named("berth-cluster-connect"));

    private final Executor stateThread;
    private final ClusterEvents events;
    private final String origin;
    private final Clock clock;
    private final ResilienceOptions resilience;
    private final ClusterHealthPolicy healthPolicy;
    /** Clients this replica kept warm while it followed; taken, not shared. Set before the first connect. */
    private StandbyClients standby;
    private final Map<String, WorkerCluster> clusters = new LinkedHashMap<>();
    private final OperatorMarks marks = new OperatorMarks();
    private volatile List<ClusterHealthSnapshot> snapshots = List.of();
    private String flavorCatalogue = "[]";
    private long generations;

    public WorkerClusters(Executor stateThread, ClusterEvents events, String origin) {
        this(stateThread, events, origin, Clock.systemUTC(), ResilienceOptions.DEFAULTS, HealthOptions.DEFAULTS);
    }

    public WorkerClusters(Executor stateThread, ClusterEvents events, String origin, Clock clock,
                          ResilienceOptions resilience, HealthOptions health) {
        this(stateThread, events, origin, clock, resilience, health, StandbyClients.NONE);
    }

    /** As above, adopting the clients a follower kept warm ({@link StandbyClients}) instead of building them. */
    public WorkerClusters(Executor stateThread, ClusterEvents events, String origin, Clock clock,
                          ResilienceOptions resilience, HealthOptions health, StandbyClients standby) {
        this.standby = standby;
        this.stateThread = stateThread;
        this.events = events;
        this.origin = origin;
        this.clock = clock;
        this.resilience = resilience;
        this.healthPolicy = new ClusterHealthPolicy(clock, health);
    }

    /** Before the first connect (a new leader, before its start): adopt the clients this replica kept warm as a follower. */
    public void adoptWarmClients(StandbyClients warm) {
        if (!clusters.isEmpty()) throw new IllegalStateException("warm clients are adopted before the first connect");
        this.standby = warm;
    }

    /**
     * (Re)connects a cluster from its kubeconfig; the previous client, if any, is closed. The same
     * source as the current connection's changes nothing (an annotation edit must not reconnect).
     */
    public void connect(String name, KubeconfigSource source) {
        WorkerCluster existing = clusters.get(name);
        if (existing != null && existing.source.equals(source) && source.error() == null) return;
        disconnect(name);
        WorkerCluster cluster = new WorkerCluster(name, ++generations, source, clock.instant());
        clusters.put(name, cluster);
        if (source.error() != null) {
            failed(cluster, source.error());
            return;
        }
        Optional<StandbyClients.Adopted> warm = standby.take(name, source, resilience);
        if (warm.isPresent()) {
            // the catalogue read by the standby is what a leader wrote from this same store: unchanged, the first
            // poll lists at once instead of rewriting it first (a stale one is still rewritten)
            cluster.catalogueCurrent = flavorCatalogue.equals(warm.get().catalogueSeen());
            clientReady(cluster, warm.get().client(), "adopted from the warm standby", warm.get().finishedSeen());
            return;
        }
        // Built off any Vert.x context: each client has a Vert.x instance of its own (see ClusterClient),
        // and creating one on a Vert.x thread is what Vert.x warns about ("already on a Vert.x context").
        Future.fromCompletionStage(CompletableFuture.supplyAsync(() -> {
            try {
                return KubeconfigClients.build(source, resilience);
            } catch (Exception unusable) {
                throw new CompletionException(unusable);
            }
        }, CONNECTING)).onComplete(result -> onState(() -> {
            if (clusters.get(name) != cluster) {
                if (result.succeeded()) result.result().close();
                return;
            }
            if (result.failed()) {
                failed(cluster, KubeconfigClients.describe(result.cause()));
                return;
            }
            clientReady(cluster, result.result(), "built from " + source, List.of());
        }));
    }

    /** The client is usable: the copies a warm standby last saw finished are released first, then the cluster is polled at once. */
    private void clientReady(WorkerCluster cluster, ClusterClient client, String how, List<RemoteWorkload> finishedSeen) {
        cluster.calls = new ClusterCalls(cluster.name, client, resilience, clock);
        if (stateThread instanceof GroupedStateThread grouped) cluster.calls.sendGate(grouped::whenDurable);
        log.atInfo().addKeyValue("cluster", cluster.name).addKeyValue("sinceConnectMillis", millisSince(cluster.connectedAt))
                .addKeyValue("finishedSeen", finishedSeen.size()).log("worker cluster client " + how);
        // a task of its own: a new manager's start (and with it its API and the leader's publication) does not wait
        // for these mirrors' writes; it still runs before this poll's answer, which queues behind it
        if (!finishedSeen.isEmpty()) onState(() -> {
            if (clusters.get(cluster.name) == cluster) events.finishedCopiesSeen(cluster.name, finishedSeen);
        });
        poll(cluster);
    }

    /** Tests (dispatch scenarios): a cluster whose calls are given, no kubeconfig nor client; polled at once, as a built client is. */
    void connectWith(String name, ClusterCalls calls) {
        disconnect(name);
        WorkerCluster cluster = new WorkerCluster(name, ++generations, KubeconfigSource.ofPath("given calls of " + name), clock.instant());
        clusters.put(name, cluster);
        cluster.calls = calls;
        poll(cluster);
    }

    private long millisSince(Instant since) {
        return java.time.Duration.between(since, clock.instant()).toMillis();
    }

    public void disconnect(String name) {
        WorkerCluster cluster = clusters.remove(name);
        if (cluster != null && cluster.calls != null) cluster.calls.close();
        publishSnapshots();
    }

    /** Runs a handler on the state thread once a remote call completes. */
    public <T> void onStateThread(Future<T> call, Handler<AsyncResult<T>> handler) {
        call.onComplete(done -> onState(() -> handler.handle(done)));
    }

    /** The operator's marks (annotations of the MultiKueueCluster) on a cluster. */
    public void setOperatorMarks(String name, boolean cordoned, boolean draining) {
        marks.set(name, cordoned, draining);
        publishSnapshots();
    }

    public boolean isCordoned(String name) {
        return marks.cordoned(name);
    }

    public boolean isDraining(String name) {
        return marks.draining(name);
    }

    /** The latest health assessment; an unknown cluster is Unreachable. */
    public HealthAssessment health(String name) {
        WorkerCluster cluster = clusters.get(name);
        if (cluster == null) return new HealthAssessment(ClusterHealth.UNREACHABLE, "no MultiKueueCluster " + name);
        return cluster.health == null ? healthPolicy.assess(cluster.contact()) : cluster.health;
    }

    /** Since when a cluster is lost; null when it is not (or unknown). */
    public Instant lostSince(String name) {
        WorkerCluster cluster = clusters.get(name);
        return cluster == null ? null : cluster.lostSince;
    }

    /** Every cluster's health, for gauges: safe to call from any thread (an immutable list, replaced on change). */
    public List<ClusterHealthSnapshot> snapshots() {
        return snapshots;
    }

    /** Assesses every cluster's health; tells the events about changes. Called each poll interval. */
    public void assessHealth() {
        for (WorkerCluster cluster : clusters.values()) assess(cluster);
        publishSnapshots();
    }

    private void assess(WorkerCluster cluster) {
        HealthAssessment assessed = healthPolicy.assess(cluster.contact());
        HealthAssessment before = cluster.health;
        cluster.health = assessed;
        if (assessed.health().lost() && cluster.lostSince == null) cluster.lostSince = clock.instant();
        if (!assessed.health().lost()) cluster.lostSince = null;
        if (before != null && before.health() == assessed.health()) return;
        log.atInfo().addKeyValue("cluster", cluster.name).addKeyValue("health", assessed.health().reason())
                .addKeyValue("breaker", cluster.breaker()).log("worker cluster health: " + assessed.message());
        events.healthChanged(cluster.name, assessed, cluster.lostSince);
    }

    private void publishSnapshots() {
        List<ClusterHealthSnapshot> next = new ArrayList<>();
        for (WorkerCluster cluster : clusters.values()) {
            next.add(cluster.snapshot(marks.cordoned(cluster.name), marks.draining(cluster.name)));
        }
        snapshots = List.copyOf(next);
    }

    /** Every connected or connecting cluster's calls, for the dispatcher's writes. */
    public Optional<ClusterCalls> calls(String name) {
        WorkerCluster cluster = clusters.get(name);
        return cluster == null || cluster.calls == null ? Optional.empty() : Optional.of(cluster.calls);
    }

    /** What placement sees of a cluster; an unknown cluster is not connected. */
    /** How far a cluster can grow each flavor on request (its agent's report); empty when unknown or it cannot. */
    public Map<String, dev.berth.manager.dispatch.ScalableCapacity> scalable(String name) {
        WorkerCluster cluster = clusters.get(name);
        return cluster == null ? Map.of() : cluster.scalable();
    }

    public ClusterView view(String name) {
        WorkerCluster cluster = clusters.get(name);
        return cluster == null ? new ClusterView(name, false, marks.cordoned(name), null, Map.of(), ClusterHealth.UNREACHABLE, null)
                : cluster.view(marks.cordoned(name));
    }

    /** Every registered cluster as placement sees it, in registration order. */
    public List<ClusterView> views() {
        List<ClusterView> views = new ArrayList<>(clusters.size());
        for (String name : clusters.keySet()) views.add(view(name));
        return views;
    }

    /** The agent's last capacity report, if any (read-only views). */
    public Optional<CapacityReport> capacityReport(String name) {
        WorkerCluster cluster = clusters.get(name);
        return cluster == null ? Optional.empty() : Optional.ofNullable(cluster.capacity);
    }

    /** Why the cluster is unreachable (kubeconfig content never included), if it is. */
    public Optional<String> lastError(String name) {
        WorkerCluster cluster = clusters.get(name);
        return cluster == null ? Optional.empty() : Optional.ofNullable(cluster.lastError);
    }

    public boolean isConnected(String name) {
        WorkerCluster cluster = clusters.get(name);
        return cluster != null && cluster.connected;
    }

    /** The catalogue (a JSON array of FlavorDefinition) changed: rewrite it everywhere. */
    public void flavorsChanged(String flavorsJson) {
        if (flavorsJson.equals(flavorCatalogue)) return;
        flavorCatalogue = flavorsJson;
        for (WorkerCluster cluster : clusters.values()) cluster.catalogueCurrent = false;
    }

    /** One round for every cluster: catalogue if stale, heartbeat, attempts. Called periodically. */
    public void pollAll() {
        for (WorkerCluster cluster : clusters.values()) {
            if (cluster.calls != null) poll(cluster);
        }
        assessHealth();
    }

    private void poll(WorkerCluster cluster) {
        if (cluster.polling) return;
        cluster.polling = true;
        ClusterCalls calls = cluster.calls;
        String catalogue = flavorCatalogue;
        Future<Void> catalogueWritten = cluster.catalogueCurrent ? Future.succeededFuture() : calls.writeFlavorCatalogue(catalogue);
        catalogueWritten
                .compose(written -> calls.readAgentLease())
                .compose(lease -> {
                    Instant leaseReadAt = clock.instant();
                    return calls.listAttempts(origin).map(attempts -> {
                        onState(() -> {
                            if (clusters.get(cluster.name) != cluster) return;
                            if (catalogue.equals(flavorCatalogue)) cluster.catalogueCurrent = true;
                            // finished copies first: their quota is handed out before the connection and heartbeat
                            // events reconcile every workload and before the rest of the listing is acted on
                            List<RemoteWorkload> finished = StandbyClients.finishedOnly(attempts);
                            if (!finished.isEmpty()) events.finishedCopiesSeen(cluster.name, finished);
                            connected(cluster);
                            heartbeat(cluster, lease);
                            // the listing was sent after the Lease's answer came: both instants say so for the dispatcher
                            events.agentEpochBeforeListing(cluster.name, AgentEpoch.of(lease), leaseReadAt, leaseReadAt);
                            events.attemptsListed(cluster.name, attempts);
                        });
                        return null;
                    });
                })
                .onComplete(done -> onState(() -> {
                    cluster.polling = false;
                    if (done.failed() && clusters.get(cluster.name) == cluster) failed(cluster, KubeconfigClients.describe(done.cause()));
                }));
    }

    private void connected(WorkerCluster cluster) {
        if (cluster.connected) return;
        cluster.connected = true;
        cluster.lastError = null;
        log.atInfo().addKeyValue("cluster", cluster.name).addKeyValue("sinceConnectMillis", millisSince(cluster.connectedAt))
                .log("worker cluster connected");
        events.connectionChanged(cluster.name, true, "Connected");
    }

    private void failed(WorkerCluster cluster, String message) {
        boolean changed = cluster.connected || !message.equals(cluster.lastError);
        cluster.connected = false;
        cluster.lastError = message;
        if (!changed) return;
        log.atWarn().addKeyValue("cluster", cluster.name).log("worker cluster unreachable: " + message);
        events.connectionChanged(cluster.name, false, message);
    }

    private void heartbeat(WorkerCluster cluster, Lease lease) {
        if (lease == null || lease.getSpec() == null || lease.getSpec().getRenewTime() == null) return;
        Instant renewed = lease.getSpec().getRenewTime().toInstant();
        CapacityReport report = cluster.capacity;
        String capacity = lease.getMetadata().getAnnotations() == null ? null : lease.getMetadata().getAnnotations().get(Annotations.AGENT_CAPACITY);
        if (capacity != null) {
            try {
                report = JSON.readValue(capacity, CapacityReport.class);
            } catch (Exception unreadable) {
                log.atWarn().addKeyValue("cluster", cluster.name).log("unreadable capacity report: " + unreadable.getMessage());
            }
        }
        boolean changed = !renewed.equals(cluster.lastHeartbeat) || report != cluster.capacity;
        cluster.lastHeartbeat = renewed;
        cluster.capacity = report;
        if (changed) events.capacityChanged(cluster.name);
    }

    private void onState(Runnable work) {
        try {
            stateThread.execute(work);
        } catch (java.util.concurrent.RejectedExecutionException shuttingDown) {
            // the manager is closing
        }
    }

    @Override
    public void close() {
        for (WorkerCluster cluster : clusters.values()) {
            if (cluster.calls != null) cluster.calls.close();
        }
        clusters.clear();
    }
}
