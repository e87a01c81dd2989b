package dev.berth.manager.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.dispatch.PlacementOptions;
import dev.berth.manager.ha.MockWorkerCluster;
import dev.berth.manager.store.MemoryObjectStore;
import dev.berth.manager.store.ObjectKey;
import dev.berth.manager.store.ObjectStore;
import dev.berth.manager.store.StoreUnavailableException;
import dev.berth.manager.store.StoredObject;
import io.vertx.core.Vertx;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Errors never drop work: when the dispatcher's reconcile of a workload throws (here the store, once
 * unavailable, while the workload is being placed), the workload is retried after a backoff and still
 * dispatched. Before the work queue, the exception dropped it (and every workload after it) until
 * something else happened to touch it. The manager runs over HTTP on loopback with one worker cluster,
 * a fabric8 CRUD mock API server; the fault comes from a real in-memory store that fails one read.
 */
class DispatchRetryTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String KUEUE = "/apis/kueue.x-k8s.io/v1beta2";
    private static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    Path dir;
    private final FailingReads store = new FailingReads(new MemoryObjectStore(Clock.systemUTC()));
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private Vertx vertx;
    private BerthManager manager;
    private MockWorkerCluster worker;

    @BeforeEach
    void start() throws Exception {
        vertx = Vertx.vertx();
        worker = new MockWorkerCluster(8);
        manager = new BerthManager(store, Clock.systemUTC(), SchedulerOptions.DEFAULTS,
                new DispatchOptions("test-manager", Duration.ofSeconds(60), Duration.ofMillis(100), PlacementOptions.DEFAULTS));
        manager.start(vertx, "127.0.0.1", 0).await();
        apply("/api/v1/namespaces", "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"team-a\"}}");
        apply(KUEUE + "/resourceflavors", "{\"kind\":\"ResourceFlavor\",\"metadata\":{\"name\":\"a100\"}}");
        apply(KUEUE + "/multikueueconfigs", "{\"kind\":\"MultiKueueConfig\",\"metadata\":{\"name\":\"workers\"},"
                + "\"spec\":{\"clusters\":[\"worker\"]}}");
        apply(KUEUE + "/admissionchecks", "{\"kind\":\"AdmissionCheck\",\"metadata\":{\"name\":\"dispatch\"},"
                + "\"spec\":{\"controllerName\":\"kueue.x-k8s.io/multikueue\",\"parameters\":{\"apiGroup\":\"kueue.x-k8s.io\","
                + "\"kind\":\"MultiKueueConfig\",\"name\":\"workers\"}}}");
        apply(KUEUE + "/clusterqueues", "{\"kind\":\"ClusterQueue\",\"metadata\":{\"name\":\"cq\"},\"spec\":{"
                + "\"namespaceSelector\":{},\"admissionChecksStrategy\":{\"admissionChecks\":[{\"name\":\"dispatch\"}]},"
                + "\"resourceGroups\":[{\"coveredResources\":[\"cpu\",\"nvidia.com/gpu\"],\"flavors\":[{\"name\":\"a100\","
                + "\"resources\":[{\"name\":\"cpu\",\"nominalQuota\":64},{\"name\":\"nvidia.com/gpu\",\"nominalQuota\":64}]}]}]}}");
        apply(KUEUE + "/namespaces/team-a/localqueues", "{\"kind\":\"LocalQueue\",\"metadata\":{\"name\":\"lq\"},"
                + "\"spec\":{\"clusterQueue\":\"cq\"}}");
        apply(KUEUE + "/multikueueclusters", "{\"kind\":\"MultiKueueCluster\",\"metadata\":{\"name\":\"worker\"},\"spec\":{"
                + "\"clusterSource\":{\"kubeConfig\":{\"locationType\":\"Path\",\"location\":\"" + worker.kubeconfig(dir) + "\"}}}}");
        await().atMost(WAIT).until(() -> "True".equals(condition(get(KUEUE + "/multikueueclusters/worker"), "Active")));
    }

    @AfterEach
    void stop() {
        manager.close();
        worker.close();
        vertx.close().await();
    }

    @Test
    void aWorkloadWhosePlacementHitAStoreFailureIsRetriedAndStillDispatched() throws Exception {
        // the MultiKueueConfig is read when a workload is placed: the next such read fails
        store.failNextGetOf(new ObjectKey(Resources.MULTIKUEUE_CONFIGS.resource(), "", "workers"));
        submitJob();

        await().atMost(WAIT).until(() -> !worker.attempts("team-a").isEmpty());
        assertThat(store.failures.get()).as("the placement did hit the failure").isEqualTo(1);
        JsonNode workload = await().atMost(WAIT).until(() -> get(KUEUE + "/namespaces/team-a/workloads").path("items").path(0),
                w -> w.path("status").path("dispatch").path("attemptId").asText().equals(
                        worker.attempts("team-a").get(0).getSpec().getAttemptId()));
        assertThat(workload.path("status").path("dispatch").path("cluster").asText()).isEqualTo("worker");
    }

    private void submitJob() throws Exception {
        apply("/apis/batch/v1/namespaces/team-a/jobs", "{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\",\"metadata\":{\"name\":\"train\","
                + "\"namespace\":\"team-a\",\"labels\":{\"kueue.x-k8s.io/queue-name\":\"lq\"}},\"spec\":{\"parallelism\":1,"
                + "\"completions\":1,\"suspend\":true,\"template\":{\"spec\":{\"restartPolicy\":\"Never\",\"containers\":[{\"name\":\"c\","
                + "\"image\":\"x\",\"resources\":{\"requests\":{\"cpu\":\"1\",\"nvidia.com/gpu\":\"1\"}}}]}}}}");
    }

    private void apply(String path, String body) throws Exception {
        String withVersion = body.contains("apiVersion") ? body : "{\"apiVersion\":\"kueue.x-k8s.io/v1beta2\"," + body.substring(1);
        HttpResponse<String> response = send("POST", path, withVersion);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
    }

    private JsonNode get(String path) throws Exception {
        return JSON.readTree(send("GET", path, null).body());
    }

    private HttpResponse<String> send(String method, String path, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + manager.port() + path))
                .timeout(Duration.ofSeconds(10));
        if (body == null) request.method(method, HttpRequest.BodyPublishers.noBody());
        else request.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body));
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String condition(JsonNode object, String type) {
        for (JsonNode condition : object.path("status").path("conditions")) {
            if (condition.path("type").asText().equals(type)) return condition.path("status").asText();
        }
        return null;
    }

    /** The in-memory store, whose next read of one object fails as an unavailable database would: the fault injector. */
    private static final class FailingReads implements ObjectStore {
        private final ObjectStore store;
        private volatile ObjectKey failNext;
        final AtomicInteger failures = new AtomicInteger();

        FailingReads(ObjectStore store) {
            this.store = store;
        }

        void failNextGetOf(ObjectKey key) {
            failNext = key;
        }

        @Override
        public Optional<StoredObject> get(ObjectKey key) {
            if (key.equals(failNext)) {
                failNext = null;
                failures.incrementAndGet();
                throw new StoreUnavailableException("injected: store unavailable", null);
            }
            return store.get(key);
        }

        @Override
        public List<StoredObject> list(String resource, String namespaceOrNull) {
            return store.list(resource, namespaceOrNull);
        }

        @Override
        public StoredObject create(ObjectKey key, ObjectNode object) {
            return store.create(key, object);
        }

        @Override
        public StoredObject replace(ObjectKey key, ObjectNode object, String expectedResourceVersionOrNull) {
            return store.replace(key, object, expectedResourceVersionOrNull);
        }

        @Override
        public StoredObject replaceStatus(ObjectKey key, ObjectNode status, String expectedResourceVersionOrNull) {
            return store.replaceStatus(key, status, expectedResourceVersionOrNull);
        }

        @Override
        public StoredObject delete(ObjectKey key) {
            return store.delete(key);
        }

        @Override
        public long revision() {
            return store.revision();
        }

        @Override
        public void close() {
            store.close();
        }
    }
}
