package dev.berth.manager.ha;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A replica's forwarder ends a watch it relays between two events when it is told to end its streams: an upstream
 * that has sent half an event gets to finish it, and the caller reads whole lines and then a clean end. An event that
 * never completes is cut after the bound. Real HTTP on loopback: a plain Vert.x server plays the leader's watch.
 */
class ForwardedStreamEndTest {
    private static final String FIRST = "{\"type\":\"ADDED\",\"object\":{\"metadata\":{\"name\":\"a\"}}}\n";
    private final Vertx vertx = Vertx.vertx();
    private final RequestForwarder forwarder = new RequestForwarder(vertx);
    private final AtomicReference<HttpServerResponse> upstream = new AtomicReference<>();

    @AfterEach
    void close() {
        forwarder.close();
        vertx.close().await();
    }

    @Test
    void anEndWaitsForTheEventBeingRelayedThenEndsTheStreamCleanly() throws Exception {
        Reader reader = watchThroughTheForwarder();
        upstream.get().write(FIRST + "{\"type\":\"MOD");
        await().atMost(Duration.ofSeconds(10)).until(() -> reader.text().endsWith("\"MOD"));

        forwarder.endStreams();
        upstream.get().write("IFIED\",\"object\":{\"metadata\":{\"name\":\"a\"}}}\n{\"type\":\"DEL");

        await().atMost(Duration.ofSeconds(10)).until(() -> reader.outcome.get() != null);
        assertThat(reader.outcome.get()).isEqualTo("ended");
        assertThat(reader.text()).isEqualTo(FIRST + "{\"type\":\"MODIFIED\",\"object\":{\"metadata\":{\"name\":\"a\"}}}\n");
    }

    @Test
    void anEventThatNeverCompletesIsCutAfterTheBound() throws Exception {
        Reader reader = watchThroughTheForwarder();
        upstream.get().write(FIRST + "{\"type\":\"MOD");
        await().atMost(Duration.ofSeconds(10)).until(() -> reader.text().endsWith("\"MOD"));

        forwarder.endStreams();
        await().atMost(StreamRelay.END_BOUND.plusSeconds(5)).until(() -> reader.outcome.get() != null);
        assertThat(reader.text()).doesNotContain("MODIFIED");
    }

    @Test
    void aStreamBetweenTwoEventsEndsAtOnce() throws Exception {
        Reader reader = watchThroughTheForwarder();
        upstream.get().write(FIRST);
        await().atMost(Duration.ofSeconds(10)).until(() -> reader.text().equals(FIRST));

        forwarder.endStreams();
        await().atMost(StreamRelay.END_BOUND.minusMillis(200)).until(() -> reader.outcome.get() != null);
        assertThat(reader.outcome.get()).isEqualTo("ended");
        assertThat(reader.text()).isEqualTo(FIRST);
    }

    private Reader watchThroughTheForwarder() throws Exception {
        HttpServer leader = vertx.createHttpServer().requestHandler(request -> {
            HttpServerResponse response = request.response().setChunked(true).putHeader("content-type", "application/json");
            response.writeHead();
            upstream.set(response);
        }).listen(0, "127.0.0.1").await();
        HttpServer front = vertx.createHttpServer().requestHandler(request -> {
            request.pause();
            forwarder.forward(request, "http://127.0.0.1:" + leader.actualPort(), Map.of());
        }).listen(0, "127.0.0.1").await();
        HttpResponse<InputStream> watch = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build().send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + front.actualPort() + "/api/v1/namespaces?watch=true"))
                        .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofInputStream());
        assertThat(watch.statusCode()).isEqualTo(200);
        Reader reader = new Reader(watch.body());
        reader.start();
        return reader;
    }

    /** Reads the stream to its end, keeping what arrived and how it ended ("ended" for a clean end, else the error). */
    private static final class Reader extends Thread {
        private final InputStream body;
        private final StringBuffer text = new StringBuffer();
        final AtomicReference<String> outcome = new AtomicReference<>();

        Reader(InputStream body) {
            super("forwarded-watch-reader");
            setDaemon(true);
            this.body = body;
        }

        String text() {
            return text.toString();
        }

        @Override
        public void run() {
            byte[] chunk = new byte[4096];
            try (body) {
                for (int read; (read = body.read(chunk)) >= 0; ) text.append(new String(chunk, 0, read, StandardCharsets.UTF_8));
                outcome.set("ended");
            } catch (IOException cut) {
                outcome.set("cut: " + cut.getMessage());
            }
        }
    }
}
