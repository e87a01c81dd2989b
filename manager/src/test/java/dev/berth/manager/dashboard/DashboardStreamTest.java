package dev.berth.manager.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.berth.manager.testing.ManagerClient;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The stream's pacing over real HTTP, with a snapshot source the test controls: unchanged state
 * pushes nothing, a change is pushed, heartbeats are comments, a source that never answers does not
 * stop the stream, and a closed listener stops the snapshots.
 */
class DashboardStreamTest {
    /** Not the ManagerHarness: the stream alone on a bare Router, so the test controls its snapshot source and pacing. */
    private final Vertx vertx = Vertx.vertx();
    private final AtomicReference<CompletableFuture<String>> next = new AtomicReference<>();
    private final AtomicReference<String> state = new AtomicReference<>("{\"v\":1}");
    private final AtomicInteger taken = new AtomicInteger();
    private DashboardStream stream;
    private HttpServer server;
    private ManagerClient client;

    @BeforeEach
    void start() {
        stream = new DashboardStream(() -> {
            taken.incrementAndGet();
            CompletableFuture<String> stuck = next.getAndSet(null);
            return stuck != null ? stuck : CompletableFuture.completedFuture(state.get());
        }, Duration.ofMillis(50), Duration.ofMillis(200), Duration.ofMillis(300));
        Router router = Router.router(vertx);
        router.get(DashboardRoutes.STREAM).handler(stream::handle);
        server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").await();
        client = new ManagerClient("http://127.0.0.1:" + server.actualPort());
    }

    @AfterEach
    void stop() {
        vertx.close().await();
    }

    private ManagerClient client() {
        return client;
    }

    @Test
    void pushesOnlyChangesAndBeatsWhileIdle() throws Exception {
        try (SseReader reader = new SseReader(client(), DashboardRoutes.STREAM)) {
            await().atMost(Duration.ofSeconds(5)).until(() -> reader.snapshots().size() == 1);
            int before = taken.get();
            await().atMost(Duration.ofSeconds(5)).until(() -> taken.get() >= before + 5 && reader.lines.contains(": heartbeat"));
            assertThat(reader.snapshots()).hasSize(1);

            state.set("{\"v\":2}");
            await().atMost(Duration.ofSeconds(5)).until(() -> reader.snapshots().size() == 2);
            assertThat(reader.last().path("v").asInt()).isEqualTo(2);
        }
    }

    @Test
    void aSnapshotThatNeverCompletesIsAbandonedAtTheBound() throws Exception {
        next.set(new CompletableFuture<>());
        try (SseReader reader = new SseReader(client(), DashboardRoutes.STREAM)) {
            await().atMost(Duration.ofSeconds(5)).until(() -> reader.snapshots().size() == 1);
            assertThat(reader.last().path("v").asInt()).isEqualTo(1);
        }
    }

    @Test
    void stopsTakingSnapshotsWhenTheLastListenerLeaves() throws Exception {
        try (SseReader reader = new SseReader(client(), DashboardRoutes.STREAM)) {
            await().atMost(Duration.ofSeconds(5)).until(() -> reader.snapshots().size() == 1);
            assertThat(stream.listeners()).isEqualTo(1);
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> stream.listeners() == 0);
        int after = taken.get();
        try (SseReader second = new SseReader(client(), DashboardRoutes.STREAM)) {
            await().atMost(Duration.ofSeconds(5)).until(() -> second.snapshots().size() == 1);
            assertThat(taken.get()).isGreaterThan(after);
        }
    }
}
