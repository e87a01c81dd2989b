package dev.berth.manager.clusters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.berth.manager.dispatch.BreakerState;
import dev.berth.protocol.Labels;
import dev.berth.protocol.crd.RemoteWorkload;
import dev.berth.protocol.crd.RemoteWorkloadSpec;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * One worker cluster whose API accepts connections and never answers (a Vert.x server on loopback),
 * next to a healthy one (fabric8's CRUD mock): calls to the healthy cluster, dispatch included, go
 * through while the hung cluster's calls are stuck; with short limits the hung cluster's calls time
 * out, its breaker opens and further calls fail fast, and the healthy one still answers.
 */
class ClusterCallsResilienceTest {
    private static final ResilienceOptions FAST = new ResilienceOptions(Duration.ofMillis(500), 2, Duration.ofMillis(50), 50f, 4,
            Duration.ofSeconds(30), 2);

    private Vertx vertx;
    private HttpServer hungServer;
    private KubernetesMockServer healthyServer;
    private final List<ClusterCalls> calls = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        vertx = Vertx.vertx();
        hungServer = vertx.createHttpServer().requestHandler(request -> { /* never answers */ }).listen(0, "127.0.0.1").await();
        healthyServer = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), new KubernetesCrudDispatcher(), false);
        healthyServer.init(InetAddress.getByName("127.0.0.1"), 0);
    }

    @AfterEach
    void stop() {
        calls.forEach(ClusterCalls::close);
        healthyServer.destroy();
        vertx.close().await();
    }

    private ClusterCalls calls(String name, String url, ResilienceOptions options, int requestTimeoutMillis) {
        // as in production (WorkerClusters): each cluster's client on a Vert.x of its own
        ClusterClient client = ClusterClient.of(new ConfigBuilder().withMasterUrl(url)
                .withRequestTimeout(requestTimeoutMillis).withConnectionTimeout(requestTimeoutMillis).withRequestRetryBackoffLimit(0).build());
        ClusterCalls cluster = new ClusterCalls(name, client, options, Clock.systemUTC());
        calls.add(cluster);
        return cluster;
    }

    private ClusterCalls healthy() {
        ClusterCalls healthy = calls("healthy", healthyServer.url("/").replaceAll("/$", ""), ResilienceOptions.DEFAULTS, 10_000);
        // the JVM's first fabric8 call (class loading, JIT) is slow on a loaded machine: take it before the hang starts
        await().atMost(Duration.ofSeconds(60)).until(() -> healthy.listAttempts("warm-up").toCompletionStage().toCompletableFuture()
                .handle((done, error) -> error == null).join());
        return healthy;
    }

    @Test
    void aHungClusterNeverDelaysCallsToAnotherCluster() {
        ClusterCalls healthy = healthy();
        // the hung cluster's calls stay stuck (no time limit hits within the test) and fill its bulkhead
        ClusterCalls hung = calls("hung", "http://127.0.0.1:" + hungServer.actualPort(),
                new ResilienceOptions(Duration.ofSeconds(60), 1, Duration.ofMillis(50), 50f, 4, Duration.ofSeconds(30), 2), 120_000);
        List<Future<?>> hanging = new ArrayList<>();
        for (int i = 0; i < 4; i++) hanging.add(hung.readAgentLease());
        await().atMost(Duration.ofSeconds(30)).until(() -> hung.resilience().bulkhead().getMetrics().getRemainingQueueCapacity() == 0);

        Future<Void> written = healthy.writeFlavorCatalogue("[]");
        Future<RemoteWorkload> dispatched = healthy.create(attempt("team-a", "job-1", "attempt-1"));
        Future<?> listed = healthy.listAttempts("test-manager");

        await().atMost(Duration.ofSeconds(30)).until(() -> written.isComplete() && dispatched.isComplete() && listed.isComplete());
        assertThat(written.cause()).as("catalogue write to the healthy cluster").isNull();
        assertThat(dispatched.cause()).as("dispatch to the healthy cluster").isNull();
        assertThat(listed.cause()).as("listing on the healthy cluster").isNull();
        assertThat(healthy.breakerState()).isEqualTo(BreakerState.CLOSED);
        assertThat(hanging).as("the hung cluster's calls are still stuck").noneMatch(Future::isComplete);
        assertThat(hung.lastSuccess()).isNull();
    }

    @Test
    void aHungClustersCallsTimeOutAndItsBreakerOpensWhileAnotherClusterKeepsAnswering() {
        ClusterCalls healthy = healthy();
        ClusterCalls hung = calls("hung", "http://127.0.0.1:" + hungServer.actualPort(), FAST, 1_000);

        List<Future<?>> hanging = new ArrayList<>();
        for (int i = 0; i < 8; i++) hanging.add(hung.readAgentLease());
        await().atMost(Duration.ofSeconds(30)).until(() -> hanging.stream().allMatch(Future::failed));
        await().atMost(Duration.ofSeconds(30)).until(() -> hung.breakerState() == BreakerState.OPEN);
        Future<?> refused = hung.readAgentLease();
        await().atMost(Duration.ofSeconds(5)).until(refused::failed);
        assertThat(refused.cause()).isInstanceOf(CallNotPermittedException.class);
        assertThat(hung.lastSuccess()).isNull();

        Future<?> stillFine = healthy.readAgentLease();
        await().atMost(Duration.ofSeconds(30)).until(stillFine::isComplete);
        assertThat(stillFine.cause()).isNull();
        assertThat(healthy.breakerState()).isEqualTo(BreakerState.CLOSED);
    }

    @Test
    void aCallGivenUpOnWhileItWaitedForAThreadNeverStarts() throws Exception {
        ResilienceOptions oneThread = new ResilienceOptions(Duration.ofMillis(300), 1, Duration.ofMillis(50), 50f, 10,
                Duration.ofSeconds(30), 1);
        try (ClusterResilience resilience = new ClusterResilience("queued", oneThread)) {
            java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.atomic.AtomicInteger queuedRan = new java.util.concurrent.atomic.AtomicInteger();
            var blocking = resilience.call(() -> release.await(30, java.util.concurrent.TimeUnit.SECONDS)).toCompletableFuture();
            await().atMost(Duration.ofSeconds(10)).until(() -> resilience.bulkhead().getMetrics().getActiveThreadCount() == 1);
            var queued = resilience.call(queuedRan::incrementAndGet).toCompletableFuture();
            await().atMost(Duration.ofSeconds(10)).until(queued::isCompletedExceptionally);
            assertThat(blocking).as("the first call timed out as well, still holding the only thread").isCompletedExceptionally();

            release.countDown();
            await().atMost(Duration.ofSeconds(10)).until(() -> resilience.bulkhead().getMetrics().getQueueDepth() == 0);
            // the single thread takes tasks in order: once this one ran, the given-up one was taken off the queue before it
            String after = resilience.call(() -> "ran").toCompletableFuture().get(10, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(after).isEqualTo("ran");
            assertThat(queuedRan).as("the try the time limiter gave up on while it was queued").hasValue(0);
        }
    }

    private static RemoteWorkload attempt(String namespace, String workload, String attemptId) {
        RemoteWorkload attempt = new RemoteWorkload();
        attempt.setMetadata(new ObjectMetaBuilder().withNamespace(namespace).withName(workload)
                .addToLabels(Labels.ORIGIN, "test-manager").addToLabels(Labels.ATTEMPT_ID, attemptId).build());
        RemoteWorkloadSpec spec = new RemoteWorkloadSpec();
        spec.setOrigin("test-manager");
        spec.setWorkloadName(workload);
        spec.setAttemptId(attemptId);
        attempt.setSpec(spec);
        return attempt;
    }

    @Test
    void aClientErrorIsTheRequestsFaultNotTheClusters() {
        assertThat(ClusterResilience.isFailureOfTheCluster(new io.fabric8.kubernetes.client.KubernetesClientException("conflict", 409, null)))
                .isFalse();
        assertThat(ClusterResilience.isRetryable(new io.fabric8.kubernetes.client.KubernetesClientException("busy", 503, null))).isTrue();
        assertThat(ClusterResilience.isRetryable(new io.fabric8.kubernetes.client.KubernetesClientException("slow down", 429, null))).isTrue();
        assertThat(ClusterResilience.isRetryable(new java.util.concurrent.TimeoutException())).isTrue();
    }
}
