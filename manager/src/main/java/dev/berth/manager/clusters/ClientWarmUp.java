package dev.berth.manager.clusters;

import dev.berth.protocol.crd.RemoteWorkload;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pays a replica's first worker-cluster client build ahead of time. A new leader builds one fabric8
 * client on a Vert.x of its own per worker cluster and reads a Lease and a list of RemoteWorkloads with
 * it; the first time in a JVM that loads and initializes fabric8's serialization and the Vert.x client
 * (seconds on a loaded node: drill 5 saw 5-17 s between taking office and the first client). A follower
 * does it once at start, on a daemon thread, against no server at all (nothing is sent), so that a
 * failover finds those classes ready. Best effort: a failure is logged and changes nothing.
 */
public final class ClientWarmUp {
    private static final Logger log = LoggerFactory.getLogger(ClientWarmUp.class);

    private ClientWarmUp() {}

    /** Starts the warm-up in the background; returns at once. */
    public static CompletableFuture<Void> start() {
        return CompletableFuture.runAsync(ClientWarmUp::warm, WorkerClusters.CONNECTING);
    }

    private static void warm() {
        long started = System.nanoTime();
        Config config = new ConfigBuilder(Config.empty()).withMasterUrl("https://127.0.0.1:1").build();
        try (ClusterClient client = ClusterClient.of(config)) {
            var serialization = client.client().getKubernetesSerialization();
            serialization.unmarshal("{\"apiVersion\":\"coordination.k8s.io/v1\",\"kind\":\"Lease\",\"metadata\":{\"name\":\"w\","
                    + "\"annotations\":{\"a\":\"1\"}},\"spec\":{\"renewTime\":\"2026-01-01T00:00:00.000000Z\"}}", Lease.class);
            serialization.unmarshal("{\"apiVersion\":\"berth.dev/v1alpha1\",\"kind\":\"RemoteWorkload\",\"metadata\":{\"name\":\"w\"},"
                    + "\"spec\":{\"attemptId\":\"a\",\"fencingEpoch\":1},\"status\":{\"phase\":\"Running\"}}", RemoteWorkload.class);
            log.atInfo().addKeyValue("tookMillis", (System.nanoTime() - started) / 1_000_000)
                    .log("worker-cluster client path warmed for a failover");
        } catch (RuntimeException e) {
            log.atDebug().setMessage("worker-cluster client warm-up failed; a new leader pays it instead").setCause(e).log();
        }
    }
}
