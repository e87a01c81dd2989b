package dev.berth.manager.clusters;

import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.http.Dispatcher;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;

/** A CRUD mock API server on loopback with the given dispatcher, and the manager's {@link ClusterCalls} to it. */
record MockServerCalls(KubernetesMockServer server, ClusterCalls calls) implements AutoCloseable {
    static MockServerCalls start(Dispatcher dispatcher) {
        KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), dispatcher, false);
        try {
            server.init(InetAddress.getByName("127.0.0.1"), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ClusterClient client = ClusterClient.of(new ConfigBuilder().withMasterUrl(server.url("/").replaceAll("/$", ""))
                .withRequestRetryBackoffLimit(0).build());
        // one attempt, and room for the JVM's slow first fabric8 call on a loaded machine
        ResilienceOptions patient = new ResilienceOptions(Duration.ofSeconds(30), 1, Duration.ofMillis(100), 50f, 10, Duration.ofSeconds(10), 8);
        return new MockServerCalls(server, new ClusterCalls("worker", client, patient, Clock.systemUTC()));
    }

    @Override
    public void close() {
        calls.close();
        server.destroy();
    }
}
