package dev.berth.manager.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.manager.security.edge.ApiSecurity;
import dev.berth.manager.store.ChangeFeedStore;
import dev.berth.manager.store.HeldSyncStore;
import dev.berth.manager.store.MemoryObjectStore;
import dev.berth.manager.store.ObjectStore;
import dev.berth.manager.store.SyncOutcome;
import dev.berth.manager.testing.ManagerClient;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A graceful shutdown over real HTTP on loopback, in kube-apiserver's order: /readyz fails at once while requests
 * are still served for the shutdown delay; then the listener stops, open watches end cleanly, and a request in
 * flight is answered once its write is durable before the drain returns.
 */
class GracefulShutdownHttpTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String WIDGETS = ApiServerFixture.WIDGETS;

    private final ExecutorService state = Executors.newSingleThreadExecutor(r -> new Thread(r, "state"));
    private Vertx vertx;
    private ObjectStore store;
    private ApiServer api;
    private HttpServer server;
    private ManagerClient client;

    private void start(ObjectStore backing, Duration delay) throws Exception {
        vertx = Vertx.vertx();
        ChangeFeedStore feed = new ChangeFeedStore(backing, state);
        store = feed;
        WatchHub hub = new WatchHub(feed, WatchHub.DEFAULT_HISTORY);
        feed.listen(hub);
        ObjectService service = new ObjectService(feed, TestKinds.registry(new TestKinds.WidgetHooks()));
        api = new ApiServer(service, state, 64 * 1024, hub, Clock.systemUTC(), ApiSecurity.limitsOnly());
        api.shutdown().timing(delay, Duration.ofSeconds(20));
        server = api.start(vertx, "127.0.0.1", 0).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        // HTTP/1.1, as kubectl and browsers speak to the API: the JDK 17 client fails every stream of a connection at a GOAWAY
        client = ManagerClient.http1("http://127.0.0.1:" + server.actualPort(), Duration.ofSeconds(5), Duration.ofSeconds(20));
    }

    @AfterEach
    void stop() throws Exception {
        if (vertx != null) vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        state.shutdownNow();
        if (store != null) store.close();
    }

    private Thread drainInBackground() {
        Thread drain = new Thread(() -> api.drain(server), "drain");
        drain.start();
        return drain;
    }

    private HttpResponse<String> create(String name) {
        return client.exchange("POST", WIDGETS, Map.of("Content-Type", ManagerClient.JSON_TYPE),
                HttpRequest.BodyPublishers.ofString(ApiServerFixture.widget(name, "{}")));
    }

    /** A fresh connection to the API: refused once the listener stopped. */
    private boolean listenerRefuses() {
        HttpClient fresh = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        try {
            fresh.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.actualPort() + "/livez"))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
            return false;
        } catch (ConnectException refused) {
            return true;
        } catch (IOException | InterruptedException other) {
            return false;
        }
    }

    @Test
    void readinessFailsAtOnceRequestsAreServedThroughTheDelayAndThenWatchesEndCleanly() throws Exception {
        start(new MemoryObjectStore(), Duration.ofSeconds(8));
        List<JsonNode> events = new CopyOnWriteArrayList<>();
        AtomicReference<String> streamEnd = new AtomicReference<>();
        HttpResponse<InputStream> watch = client.sendRaw("GET", WIDGETS + "?watch=true", HttpRequest.BodyPublishers.noBody(),
                request -> { }, HttpResponse.BodyHandlers.ofInputStream());
        assertThat(watch.statusCode()).isEqualTo(200);
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(watch.body(), StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    if (!line.isBlank()) events.add(JSON.readTree(line));
                }
                streamEnd.set("ended");
            } catch (IOException cut) {
                streamEnd.set("cut: " + cut);
            }
        }, "watch-reader");
        reader.setDaemon(true);
        reader.start();

        Thread drain = drainInBackground();
        await().atMost(Duration.ofSeconds(5)).until(() -> client.exchange("GET", "/readyz", Map.of(),
                HttpRequest.BodyPublishers.noBody()).statusCode() == 500);
        HttpResponse<String> readiness = client.exchange("GET", "/readyz?verbose", Map.of(), HttpRequest.BodyPublishers.noBody());
        assertThat(readiness.body()).contains("[-]shutdown failed: reason withheld\n").endsWith("readyz check failed\n");
        assertThat(client.exchange("GET", "/livez", Map.of(), HttpRequest.BodyPublishers.noBody()).statusCode())
                .as("a manager shutting down is not dead: the orchestrator must not restart it").isEqualTo(200);
        assertThat(create("during-the-delay").statusCode()).as("requests are served while load balancers notice").isEqualTo(201);
        assertThat(listenerRefuses()).as("new connections are taken during the delay").isFalse();
        await().atMost(Duration.ofSeconds(10)).until(() -> events.size() == 1);

        await().atMost(Duration.ofSeconds(30)).until(() -> streamEnd.get() != null);
        assertThat(streamEnd.get()).as("the watch ends as a stream, so client-go re-watches from where it was").isEqualTo("ended");
        assertThat(events).singleElement().satisfies(event -> {
            assertThat(event.path("type").asText()).isEqualTo("ADDED");
            assertThat(event.path("object").path("metadata").path("name").asText()).isEqualTo("during-the-delay");
        });
        await().atMost(Duration.ofSeconds(15)).until(() -> !drain.isAlive());
        assertThat(listenerRefuses()).isTrue();
    }

    @Test
    void aRequestInFlightWhenTheListenerStopsIsAnsweredOnceItsWriteIsDurable() throws Exception {
        HeldSyncStore held = new HeldSyncStore();
        start(held, Duration.ZERO);
        CompletableFuture<HttpResponse<String>> created = client.sendRawAsync("POST", WIDGETS,
                HttpRequest.BodyPublishers.ofString(ApiServerFixture.widget("in-flight", "{}")),
                request -> request.header("Content-Type", ManagerClient.JSON_TYPE), HttpResponse.BodyHandlers.ofString());
        SyncOutcome sync = held.nextSync();

        Thread drain = drainInBackground();
        await().atMost(Duration.ofSeconds(10)).until(this::listenerRefuses);
        assertThat(created).as("the reply waits for its write to be durable").isNotDone();
        assertThat(drain.isAlive()).as("the drain waits for the request in flight").isTrue();

        sync.durable();
        assertThat(created.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(201);
        await().atMost(Duration.ofSeconds(10)).until(() -> !drain.isAlive());
        assertThat(held.list(TestKinds.WIDGET.resource(), null)).extracting(object -> object.key().name()).containsExactly("in-flight");
    }
}
