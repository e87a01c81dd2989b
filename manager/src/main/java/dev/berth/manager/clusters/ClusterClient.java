package dev.berth.manager.clusters;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.vertx5.Vertx5HttpClientFactory;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;

/**
 * A worker cluster's fabric8 client on a Vert.x of its own (one event loop, one worker thread).
 * fabric8 completes a synchronous call's response on the event loop that read it, and deserializes
 * it there: on the manager's shared Vert.x, a cluster answering large lists or slowly (or the first
 * call's class loading on a loaded machine) held event loops that the API server and every other
 * cluster's connections needed. With a loop per cluster, a slow or hung cluster costs only its own.
 */
final class ClusterClient implements AutoCloseable {
    private final Vertx vertx;
    private final KubernetesClient client;

    private ClusterClient(Vertx vertx, KubernetesClient client) {
        this.vertx = vertx;
        this.client = client;
    }

    /** Builds the client; the caller closes it (which closes its Vert.x too). */
    static ClusterClient of(Config config) {
        Vertx own = Vertx.builder().with(new VertxOptions().setEventLoopPoolSize(1).setWorkerPoolSize(1)
                .setInternalBlockingPoolSize(1)).build();
        try {
            return new ClusterClient(own, new KubernetesClientBuilder().withConfig(config)
                    .withHttpClientFactory(new Vertx5HttpClientFactory(own)).build());
        } catch (RuntimeException e) {
            own.close();
            throw e;
        }
    }

    KubernetesClient client() {
        return client;
    }

    @Override
    public void close() {
        try {
            client.close();
        } finally {
            vertx.close();
        }
    }
}
