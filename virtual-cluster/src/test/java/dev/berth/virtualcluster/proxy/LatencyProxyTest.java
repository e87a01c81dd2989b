package dev.berth.virtualcluster.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.vertx.core.Vertx;
import io.vertx.core.net.NetServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class LatencyProxyTest {
    private Vertx vertx;
    private LatencyProxy proxy;

    @BeforeEach
    void start() {
        vertx = Vertx.vertx();
        NetServer echo = vertx.createNetServer().connectHandler(socket -> socket.handler(socket::write))
                .listen(0, "127.0.0.1").await();
        proxy = new LatencyProxy(vertx, new ProxyTarget("127.0.0.1", echo.actualPort()));
        proxy.start("127.0.0.1", 0, 0).await();
    }

    @AfterEach
    void stop() {
        proxy.close().await();
        vertx.close().await();
    }

    @Test
    void forwardsBothWaysInOrderWithAndWithoutDelay() throws IOException {
        assertThat(roundTrip("first|second|third")).isEqualTo("first|second|third");
        proxy.delay(50);
        assertThat(roundTrip("delayed|still|in|order")).isEqualTo("delayed|still|in|order");
    }

    @Test
    void downRefusesConnectionsAndUpServesAgain() throws IOException {
        proxy.down();
        assertThat(proxy.state()).contains("\"down\":true");
        assertThatThrownBy(() -> roundTrip("lost")).isInstanceOf(IOException.class);
        proxy.up();
        // A connection refused while down may still be closing on the event loop when the next one arrives
        // (seen once in CI), so the claim is that connections are served again, not that the very first is.
        await().atMost(Duration.ofSeconds(10)).ignoreExceptionsInstanceOf(IOException.class)
                .untilAsserted(() -> assertThat(roundTrip("back")).isEqualTo("back"));
    }

    @Test
    void aNegativeDelayIsRejected() {
        assertThatThrownBy(() -> proxy.delay(-1)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("negative");
    }

    @Test
    void aTargetMustBeHostAndPort() {
        assertThat(ProxyTarget.parse("worker-1-api:6443")).isEqualTo(new ProxyTarget("worker-1-api", 6443));
        assertThatThrownBy(() -> ProxyTarget.parse("no-port")).hasMessageContaining("host:port");
        assertThatThrownBy(() -> ProxyTarget.parse("api:0")).hasMessageContaining("between 1 and 65535");
    }

    /** Sends the text, then reads the same number of bytes back; a closed connection is an IOException. */
    private String roundTrip(String text) throws IOException {
        byte[] sent = text.getBytes(StandardCharsets.UTF_8);
        try (Socket socket = new Socket("127.0.0.1", proxy.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(sent);
            socket.getOutputStream().flush();
            InputStream in = socket.getInputStream();
            byte[] received = new byte[sent.length];
            int read = 0;
            while (read < sent.length) {
                int n = in.read(received, read, sent.length - read);
                if (n < 0) throw new IOException("connection closed after " + read + " bytes");
                read += n;
            }
            return new String(received, StandardCharsets.UTF_8);
        }
    }
}
