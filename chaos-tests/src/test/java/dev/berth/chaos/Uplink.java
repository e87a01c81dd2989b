package dev.berth.chaos;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Control of a worker cluster's uplink: the {@code LatencyProxy} container through which the manager
 * reaches that cluster's API server. Adds latency, or takes the link down (open connections closed,
 * new ones refused) and up again.
 */
public final class Uplink {
    /** Not ManagerClient: this talks to the LatencyProxy's control port, not to the manager's API. */
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
    private final String controlUrl;

    Uplink(String controlUrl) {
        this.controlUrl = controlUrl;
    }

    public void latency(Duration delay) {
        post("/delay?ms=" + delay.toMillis());
    }

    public void down() {
        post("/down");
    }

    public void up() {
        post("/up");
    }

    /** Posts a control request, retrying a refused connection for a few seconds (the proxy may be busy starting). */
    private void post(String path) {
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(500))
                .ignoreExceptionsInstanceOf(UplinkUnreachable.class).until(() -> {
                    postOnce(path);
                    return true;
                });
    }

    private static final class UplinkUnreachable extends RuntimeException {
        UplinkUnreachable(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private void postOnce(String path) {
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(controlUrl + path))
                    .POST(HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) throw new IllegalStateException("uplink " + path + " answered " + response.statusCode() + ": " + response.body());
        } catch (java.io.IOException e) {
            throw new UplinkUnreachable("uplink control " + controlUrl + path + " unreachable", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
