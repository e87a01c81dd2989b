package dev.berth.manager.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.manager.security.edge.ApiSecurity;
import dev.berth.manager.store.ChangeFeedStore;
import dev.berth.manager.store.MemoryObjectStore;
import dev.berth.manager.testing.ManagerClient;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Watches over real HTTP against a hub that keeps only three changes and bookmarks every 200 ms
 * (issue 13): a resourceVersion older than the history is a 410 Expired ERROR event (client-go then
 * re-lists), bookmarks arrive when allowed, and the watch-list (sendInitialEvents) ends its initial
 * ADDED events with a bookmark annotated {@code k8s.io/initial-events-end}.
 */
class WatchExpiryHttpTest {
    // Not the ManagerHarness: a bare ApiServer whose watch hub keeps three changes, which a BerthManager does not expose.
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String WIDGETS = ApiServerFixture.WIDGETS;

    private Vertx vertx;
    private ExecutorService state;
    private ChangeFeedStore store;
    private HttpServer server;
    private ManagerClient client;
    private final List<Stream<String>> open = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws Exception {
        vertx = Vertx.vertx();
        state = Executors.newSingleThreadExecutor(r -> new Thread(r, "state"));
        store = new ChangeFeedStore(new MemoryObjectStore());
        WatchHub hub = new WatchHub(store, 3, Duration.ofMillis(200));
        store.listen(hub);
        ObjectService service = new ObjectService(store, TestKinds.registry(new TestKinds.WidgetHooks()));
        server = new ApiServer(service, state, 64 * 1024, hub, Clock.systemUTC(), ApiSecurity.limitsOnly()).start(vertx, "127.0.0.1", 0)
                .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        client = new ManagerClient("http://127.0.0.1:" + server.actualPort(), Duration.ofSeconds(5), Duration.ofSeconds(10));
    }

    @AfterEach
    void stop() throws Exception {
        open.forEach(Stream::close);
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        state.shutdownNow();
        store.close();
    }

    private HttpResponse<String> send(String method, String path, String body) {
        return client.exchange(method, path, Map.of("Content-Type", ManagerClient.JSON_TYPE),
                body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    }

    private void widgets(String... names) throws Exception {
        for (String name : names) {
            assertThat(send("POST", WIDGETS, ApiServerFixture.widget(name, "{}")).statusCode()).isEqualTo(201);
        }
    }

    /** The events of a watch as they arrive, read on a background thread. */
    private List<JsonNode> watch(String query) throws Exception {
        HttpResponse<Stream<String>> response = client.sendRaw("GET", WIDGETS + "?watch=true&" + query, HttpRequest.BodyPublishers.noBody(),
                request -> { }, HttpResponse.BodyHandlers.ofLines());
        assertThat(response.statusCode()).isEqualTo(200);
        open.add(response.body());
        List<JsonNode> events = new CopyOnWriteArrayList<>();
        Thread reader = new Thread(() -> {
            try {
                response.body().forEach(line -> {
                    try {
                        if (!line.isBlank()) events.add(JSON.readTree(line));
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
            } catch (RuntimeException e) {
                // the stream closed
            }
        }, "watch-reader");
        reader.setDaemon(true);
        reader.start();
        return events;
    }

    private static List<String> types(List<JsonNode> events) {
        return events.stream().map(e -> e.get("type").asText()).toList();
    }

    @Test
    void aResourceVersionOlderThanTheHistoryIsA410ExpiredErrorEvent() throws Exception {
        widgets("a", "b", "c", "d", "e", "f");

        List<JsonNode> events = watch("resourceVersion=1");

        await().atMost(Duration.ofSeconds(10)).until(() -> !events.isEmpty());
        JsonNode error = events.get(0);
        assertThat(error.get("type").asText()).isEqualTo("ERROR");
        assertThat(error.at("/object/kind").asText()).isEqualTo("Status");
        assertThat(error.at("/object/code").asInt()).isEqualTo(410);
        assertThat(error.at("/object/reason").asText()).isEqualTo("Expired");
        assertThat(error.at("/object/message").asText()).isEqualTo("too old resource version: 1 (3)");
        assertThat(events).hasSize(1);

        List<JsonNode> recent = watch("resourceVersion=4");
        await().atMost(Duration.ofSeconds(10)).until(() -> recent.size() == 2);
        assertThat(recent).extracting(e -> e.at("/object/metadata/name").asText()).containsExactly("e", "f");
    }

    @Test
    void bookmarksArriveWhenAllowedCarryingOnlyTheResourceVersionAndNeverRunAhead() throws Exception {
        widgets("a");
        String after = Long.toString(store.revision());
        List<JsonNode> events = watch("resourceVersion=" + after + "&allowWatchBookmarks=true");
        List<JsonNode> plain = watch("resourceVersion=" + after);

        await().atMost(Duration.ofSeconds(10)).until(() -> types(events).contains("BOOKMARK"));
        JsonNode bookmark = events.stream().filter(e -> e.get("type").asText().equals("BOOKMARK")).findFirst().orElseThrow();
        assertThat(bookmark.at("/object/kind").asText()).isEqualTo("Widget");
        assertThat(bookmark.at("/object/apiVersion").asText()).isEqualTo("test.berth.dev/v1");
        assertThat(bookmark.at("/object/metadata/resourceVersion").asText()).isEqualTo(after);
        assertThat(bookmark.get("object").size()).isEqualTo(3);
        assertThat(bookmark.at("/object/metadata").size()).isEqualTo(1);

        widgets("b");
        long written = store.revision();
        await().atMost(Duration.ofSeconds(10)).until(() -> events.stream().anyMatch(e -> e.get("type").asText().equals("BOOKMARK")
                && e.at("/object/metadata/resourceVersion").asLong() == written));
        int added = types(events).indexOf("ADDED");
        int laterBookmark = events.indexOf(events.stream().filter(e -> e.at("/object/metadata/resourceVersion").asLong() == written
                && e.get("type").asText().equals("BOOKMARK")).findFirst().orElseThrow());
        assertThat(added).as("the change before the bookmark that covers it").isLessThan(laterBookmark);
        await().atMost(Duration.ofSeconds(10)).until(() -> plain.size() == 1);
        assertThat(types(plain)).as("no bookmarks unless asked for").containsExactly("ADDED");
    }

    @Test
    void aWatchListSendsTheCurrentObjectsThenABookmarkMarkingTheEndOfInitialEvents() throws Exception {
        widgets("a", "b");
        long current = store.revision();

        List<JsonNode> events = watch("sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true");

        await().atMost(Duration.ofSeconds(10)).until(() -> events.size() >= 3);
        assertThat(types(events).subList(0, 3)).containsExactly("ADDED", "ADDED", "BOOKMARK");
        JsonNode end = events.get(2).get("object");
        assertThat(end.at("/metadata/annotations/k8s.io~1initial-events-end").asText()).isEqualTo("true");
        assertThat(end.at("/metadata/resourceVersion").asLong()).isEqualTo(current);
        widgets("c");
        await().atMost(Duration.ofSeconds(10)).until(() -> events.stream().anyMatch(e -> e.at("/object/metadata/name").asText().equals("c")));
    }

    @Test
    void aWatchListWithoutNotOlderThanOrBookmarksIs422() throws Exception {
        HttpResponse<String> refused = send("GET", WIDGETS + "?watch=true&sendInitialEvents=true", null);
        assertThat(refused.statusCode()).isEqualTo(422);
        assertThat(refused.body()).contains("sendInitialEvents requires setting resourceVersionMatch to NotOlderThan",
                "sendInitialEvents requires setting allowWatchBookmarks to true");
        HttpResponse<String> matchAlone = send("GET", WIDGETS + "?watch=true&resourceVersion=1&resourceVersionMatch=NotOlderThan", null);
        assertThat(matchAlone.statusCode()).isEqualTo(422);
        assertThat(new String(matchAlone.body().getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8))
                .contains("resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided");
    }
}
