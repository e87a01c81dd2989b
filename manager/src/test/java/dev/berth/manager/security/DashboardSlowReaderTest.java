package dev.berth.manager.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.berth.manager.dashboard.DashboardRoutes;
import dev.berth.manager.dashboard.DashboardStream;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Router;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Class 5 of issue 12: a dashboard listener that never reads. The stream writes a new 64 KB snapshot
 * every 10 ms; a client with a tiny receive window reads nothing. The server stops writing to it once
 * its write queue is full, and drops it at the second heartbeat that finds it still full, having
 * handed its connection no more than the socket buffers and the write queue's high-water marks
 * (Netty's 64 KB, then Vert.x's 16 writes: about 18 snapshots here, 1.2 MB).
 */
class DashboardSlowReaderTest {
    static final int SNAPSHOT_BYTES = 64 * 1024;
    // Not the ManagerHarness: the stream alone on a bare Router with a small send buffer, read (not) through a raw socket.
    private final Vertx vertx = Vertx.vertx();

    @AfterEach
    void stop() {
        vertx.close().await();
    }

    @Test
    void aListenerThatNeverReadsIsDroppedAndCostsABoundedAmount() throws Exception {
        AtomicInteger version = new AtomicInteger();
        String padding = "x".repeat(SNAPSHOT_BYTES);
        DashboardStream stream = new DashboardStream(
                () -> CompletableFuture.completedFuture("{\"v\":" + version.incrementAndGet() + ",\"pad\":\"" + padding + "\"}"),
                Duration.ofMillis(10), Duration.ofMillis(200), Duration.ofSeconds(1), 4, 64, DashboardStream::remoteAddress);
        Router router = Router.router(vertx);
        router.get(DashboardRoutes.STREAM).handler(stream::handle);
        HttpServer server = vertx.createHttpServer(new HttpServerOptions().setSendBufferSize(64 * 1024))
                .requestHandler(router).listen(0, "127.0.0.1").await();

        try (Socket client = new Socket()) {
            client.setReceiveBufferSize(4096);
            client.connect(new InetSocketAddress("127.0.0.1", server.actualPort()));
            client.getOutputStream().write(("GET " + DashboardRoutes.STREAM + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            client.getOutputStream().flush();
            await().atMost(Duration.ofSeconds(5)).until(() -> stream.listeners() == 1);
            await().atMost(Duration.ofSeconds(20)).until(() -> stream.dropped() == 1 && stream.listeners() == 0);
            client.setSoTimeout(10_000);
            long read = 0;
            byte[] buffer = new byte[8192];
            try {
                for (int n; (n = client.getInputStream().read(buffer)) >= 0; ) read += n;
            } catch (java.net.SocketException reset) {
                // an abortive close may reset rather than end the stream
            }
            assertThat(read).as("the connection was closed, not left with its queue").isLessThan(stream.bytesWritten());
            int snapshotsTaken = version.get();
            assertThat(snapshotsTaken).as("snapshots kept coming while it was stuck").isGreaterThan(20);
            assertThat(stream.bytesWritten()).as("bytes handed to a client that read nothing")
                    .isLessThan(24L * SNAPSHOT_BYTES)
                    // fewer snapshots handed over than taken: once its queue was full the listener was skipped
                    .isLessThan((long) snapshotsTaken * SNAPSHOT_BYTES);
        }
    }
}
