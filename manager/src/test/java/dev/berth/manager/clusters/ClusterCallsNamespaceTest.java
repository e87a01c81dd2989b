package dev.berth.manager.clusters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.protocol.crd.RemoteWorkload;
import dev.berth.protocol.crd.RemoteWorkloadSpec;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A create makes sure its namespace exists on the worker once per namespace and client, not once per create (one
 * read less on every dispatch), and checks again after the cluster said the namespace is gone.
 */
class ClusterCallsNamespaceTest {
    private final NamespaceReadCounter worker = new NamespaceReadCounter();
    private MockServerCalls mock;
    private KubernetesMockServer server;
    private ClusterCalls calls;

    @BeforeEach
    void start() throws Exception {
        mock = MockServerCalls.start(worker);
        server = mock.server();
        calls = mock.calls();
    }

    @AfterEach
    void stop() {
        mock.close();
    }

    @Test
    void theNamespaceIsReadOnceForManyCreates() {
        for (int i = 0; i < 3; i++) create("team-a", "w" + i);
        create("team-b", "w9");

        assertThat(worker.namespaceReads("team-a")).as("reads of team-a for three creates").isEqualTo(1);
        assertThat(worker.namespaceReads("team-b")).isEqualTo(1);
        assertThat(server.createClient().namespaces().withName("team-a").get()).as("created on first use").isNotNull();
    }

    @Test
    void aCreateTheClusterRefusesForAMissingNamespaceMakesTheNextCreateCheckItAgain() {
        create("team-a", "w0");
        worker.nextCreateNamespaceGone.set(true);
        assertThatThrownBy(() -> create("team-a", "w1")).hasStackTraceContaining("404");

        create("team-a", "w1");

        assertThat(worker.namespaceReads("team-a")).as("read again after the 404").isEqualTo(2);
    }

    private RemoteWorkload create(String namespace, String name) {
        RemoteWorkload attempt = new RemoteWorkload();
        attempt.setMetadata(new ObjectMetaBuilder().withNamespace(namespace).withName(name).build());
        RemoteWorkloadSpec spec = new RemoteWorkloadSpec();
        spec.setOrigin("test-manager");
        spec.setWorkloadName(name);
        spec.setAttemptId("a-" + name);
        attempt.setSpec(spec);
        return calls.create(attempt).toCompletionStage().toCompletableFuture().orTimeout(30, java.util.concurrent.TimeUnit.SECONDS).join();
    }

    /** The CRUD API server, counting namespace reads, and answering one RemoteWorkload create with 404 when told to. */
    static final class NamespaceReadCounter extends KubernetesCrudDispatcher {
        private final java.util.Map<String, AtomicInteger> reads = new java.util.concurrent.ConcurrentHashMap<>();
        final AtomicBoolean nextCreateNamespaceGone = new AtomicBoolean();

        @Override
        public MockResponse dispatch(RecordedRequest request) {
            String path = request.getPath();
            if ("GET".equals(request.getMethod()) && path.matches("/api/v1/namespaces/[^/?]+(\\?.*)?")) {
                reads.computeIfAbsent(path.replaceAll("^/api/v1/namespaces/|\\?.*$", ""), n -> new AtomicInteger()).incrementAndGet();
            }
            if ("POST".equals(request.getMethod()) && path.contains("/remoteworkloads") && nextCreateNamespaceGone.compareAndSet(true, false)) {
                return new MockResponse().setResponseCode(404).setBody("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\","
                        + "\"reason\":\"NotFound\",\"code\":404,\"message\":\"namespaces \\\"team-a\\\" not found\"}");
            }
            return super.dispatch(request);
        }

        int namespaceReads(String namespace) {
            return reads.getOrDefault(namespace, new AtomicInteger()).get();
        }
    }
}
