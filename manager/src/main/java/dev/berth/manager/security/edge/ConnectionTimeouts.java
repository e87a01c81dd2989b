package dev.berth.manager.security.edge;

import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes a connection that has not sent a whole request head within {@code headerRead} of being
 * accepted (after its TLS handshake, which the server options bound by the same amount), or that
 * has had no request in progress for {@code idle}. A client that trickles its headers a byte at a
 * time is closed all the same: the clock runs from the accept, not from the last byte. A response
 * still being written (a watch, a dashboard stream) keeps its connection open; so does a request
 * whose headers arrived, whatever its body does. Each connection has one timer, checked every
 * quarter of the shorter bound, on the connection's own event loop.
 */
public final class ConnectionTimeouts {
    private static final Logger log = LoggerFactory.getLogger(ConnectionTimeouts.class);
    private final Vertx vertx;
    private final long headerReadNanos;
    private final long idleNanos;
    private final long checkEveryMillis;
    private final Map<HttpConnection, Tracked> connections = new ConcurrentHashMap<>();

    public ConnectionTimeouts(Vertx vertx, Duration headerRead, Duration idle) {
        this.vertx = vertx;
        this.headerReadNanos = headerRead.toNanos();
        this.idleNanos = idle.toNanos();
        this.checkEveryMillis = Math.max(10, Math.min(headerRead.toMillis(), idle.toMillis()) / 4);
    }

    /** Serves requests on server with these timeouts; returns the server to listen on. */
    public HttpServer install(HttpServer server, Handler<HttpServerRequest> requests) {
        server.connectionHandler(this::accepted);
        return server.requestHandler(request -> {
            Tracked tracked = connections.get(request.connection());
            if (tracked != null) tracked.started(request);
            requests.handle(request);
        });
    }

    /** Connections being watched (tests). */
    public int tracked() {
        return connections.size();
    }

    private void accepted(HttpConnection connection) {
        Tracked tracked = new Tracked(connection);
        connections.put(connection, tracked);
        connection.closeHandler(v -> {
            connections.remove(connection);
            vertx.cancelTimer(tracked.timer);
        });
        tracked.timer = vertx.setTimer(checkEveryMillis, id -> tracked.check());
    }

    private final class Tracked {
        final HttpConnection connection;
        final long acceptedAt = System.nanoTime();
        final List<HttpServerRequest> inProgress = new ArrayList<>();
        boolean sawRequest;
        long idleSince = acceptedAt;
        long timer;

        Tracked(HttpConnection connection) {
            this.connection = connection;
        }

        void started(HttpServerRequest request) {
            sawRequest = true;
            idleSince = System.nanoTime();
            inProgress.add(request);
        }

        void check() {
            long now = System.nanoTime();
            inProgress.removeIf(request -> request.response().ended() || request.response().closed());
            if (!inProgress.isEmpty()) {
                idleSince = now;
            } else if (!sawRequest && now - acceptedAt >= headerReadNanos) {
                close("no request head within the header read timeout", headerReadNanos);
                return;
            } else if (sawRequest && now - idleSince >= idleNanos) {
                close("idle", idleNanos);
                return;
            }
            timer = vertx.setTimer(checkEveryMillis, id -> check());
        }

        void close(String why, long boundNanos) {
            log.atInfo().setMessage("closing a connection: " + why)
                    .addKeyValue("remote", String.valueOf(connection.remoteAddress()))
                    .addKeyValue("boundMillis", boundNanos / 1_000_000).log();
            connections.remove(connection);
            connection.close();
        }
    }
}
