package dev.berth.manager.clusters;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.manager.dispatch.ClusterView;
import dev.berth.protocol.Annotations;
import dev.berth.protocol.crd.CapacityReport;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.vertx5.Vertx5HttpClientFactory;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.io.File;
import java.io.FileNotFoundException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One fabric8 client per MultiKueueCluster, built from its kubeconfig on the manager's Vert.x. On
 * connect it writes the flavor catalogue; then every poll it reads the agent's heartbeat Lease
 * (freshness and CapacityReport) and lists this manager's RemoteWorkloads. Remote calls run off
 * the state thread; every result hops back to the state thread before {@link ClusterEvents} hear it.
 * The public methods must be called on the state thread.
 */
public final class WorkerClusters implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(WorkerClusters.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Vertx vertx;
    private final Executor stateThread;
    private final ClusterEvents events;
    private final String origin;
    private final Map<String, WorkerCluster> clusters = new LinkedHashMap<>();
    private String flavorCatalogue = "[]";
    private long generations;

    public WorkerClusters(Vertx vertx, Executor stateThread, ClusterEvents events, String origin) {
        this.vertx = vertx;
        this.stateThread = stateThread;
        this.events = events;
        this.origin = origin;
    }

    /** (Re)connects a cluster from its kubeconfig; the previous client, if any, is closed. */
    public void connect(String name, KubeconfigSource source) {
        disconnect(name);
        WorkerCluster cluster = new WorkerCluster(name, ++generations);
        clusters.put(name, cluster);
        if (source.error() != null) {
            failed(cluster, source.error());
            return;
        }
        vertx.executeBlocking(() -> client(source), false).onComplete(result -> onState(() -> {
            if (clusters.get(name) != cluster) {
                if (result.succeeded()) result.result().close();
                return;
            }
            if (result.failed()) {
                failed(cluster, describe(result.cause()));
                return;
            }
            cluster.calls = new ClusterCalls(name, result.result(), vertx);
            log.atInfo().addKeyValue("cluster", name).log("worker cluster client built from " + source);
            poll(cluster);
        }));
    }

    public void disconnect(String name) {
        WorkerCluster cluster = clusters.remove(name);
        if (cluster != null && cluster.calls != null) cluster.calls.close();
    }

    /** Every connected or connecting cluster's calls, for the dispatcher's writes. */
    public Optional<ClusterCalls> calls(String name) {
        WorkerCluster cluster = clusters.get(name);
        return cluster == null || cluster.calls == null ? Optional.empty() : Optional.of(cluster.calls);
    }

    /** What placement sees of a cluster; an unknown cluster is not connected. */
    public ClusterView view(String name) {
        WorkerCluster cluster = clusters.get(name);
        return cluster == null ? new ClusterView(name, false, false, null, Map.of()) : cluster.view();
    }

    /** Every registered cluster as placement sees it, in registration order. */
    public List<ClusterView> views() {
        List<ClusterView> views = new ArrayList<>(clusters.size());
        for (WorkerCluster cluster : clusters.values()) views.add(cluster.view());
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
    }

    private void poll(WorkerCluster cluster) {
        if (cluster.polling) return;
        cluster.polling = true;
        ClusterCalls calls = cluster.calls;
        String catalogue = flavorCatalogue;
        Future<Void> catalogueWritten = cluster.catalogueCurrent ? Future.succeededFuture() : calls.writeFlavorCatalogue(catalogue);
        catalogueWritten
                .compose(written -> calls.readAgentLease())
                .compose(lease -> calls.listAttempts(origin).map(attempts -> {
                    onState(() -> {
                        if (clusters.get(cluster.name) != cluster) return;
                        if (catalogue.equals(flavorCatalogue)) cluster.catalogueCurrent = true;
                        connected(cluster);
                        heartbeat(cluster, lease);
                        events.attemptsListed(cluster.name, attempts);
                    });
                    return null;
                }))
                .onComplete(done -> onState(() -> {
                    cluster.polling = false;
                    if (done.failed() && clusters.get(cluster.name) == cluster) failed(cluster, describe(done.cause()));
                }));
    }

    private void connected(WorkerCluster cluster) {
        if (cluster.connected) return;
        cluster.connected = true;
        cluster.lastError = null;
        log.atInfo().addKeyValue("cluster", cluster.name).log("worker cluster connected");
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

    private KubernetesClient client(KubeconfigSource source) throws Exception {
        Config config;
        if (source.path() != null) {
            File file = new File(source.path());
            if (!file.isFile()) throw new FileNotFoundException("kubeconfig file " + source.path() + " does not exist");
            config = Config.fromKubeconfig(file);
        } else {
            config = Config.fromKubeconfig(source.content());
        }
        config.setRequestRetryBackoffLimit(0);
        config.setRequestTimeout(10_000);
        config.setConnectionTimeout(5_000);
        return new KubernetesClientBuilder().withConfig(config).withHttpClientFactory(new Vertx5HttpClientFactory(vertx)).build();
    }

    /** An error's message without content of the kubeconfig: exception messages of the parser are replaced. */
    private static String describe(Throwable error) {
        Throwable cause = error;
        while (cause.getCause() != null && cause.getMessage() == null) cause = cause.getCause();
        String message = cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
        if (message.contains("apiVersion") || message.contains("certificate-authority-data") || message.length() > 300) {
            return "invalid kubeconfig: " + cause.getClass().getSimpleName();
        }
        return message;
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
