package dev.berth.virtualcluster.proxy;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A TCP proxy in front of a cluster's API server that can add latency and go down, for failover
 * drills: every chunk is forwarded {@code delay} later than it arrived (in order, both directions),
 * and while down every open connection is closed and new ones are refused at once.
 *
 * <p>Control over HTTP: {@code GET /state}, {@code POST /delay?ms=N}, {@code POST /down},
 * {@code POST /up}, {@code GET /healthz}.
 */
public final class LatencyProxy {
    private static final Logger log = LoggerFactory.getLogger(LatencyProxy.class);

    private final Vertx vertx;
    private final ProxyTarget target;
    private final AtomicLong delayMillis = new AtomicLong();
    private final Set<NetSocket> open = ConcurrentHashMap.newKeySet();
    private volatile boolean down;
    private NetServer proxy;
    private HttpServer control;

    public LatencyProxy(Vertx vertx, ProxyTarget target) {
        this.vertx = vertx;
        this.target = target;
    }

    /** Listens for proxied connections on {@code listenPort} and for control requests on {@code controlPort}. */
    public Future<Void> start(String host, int listenPort, int controlPort) {
        return vertx.createNetServer().connectHandler(this::accept).listen(listenPort, host)
                .compose(server -> {
                    proxy = server;
                    return vertx.createHttpServer().requestHandler(this::control).listen(controlPort, host);
                })
                .map(server -> {
                    control = server;
                    log.atInfo().addKeyValue("target", target).addKeyValue("port", proxy.actualPort())
                            .addKeyValue("controlPort", server.actualPort()).log("latency proxy serving");
                    return null;
                });
    }

    public int port() {
        return proxy.actualPort();
    }

    public int controlPort() {
        return control.actualPort();
    }

    public void delay(long millis) {
        if (millis < 0) throw new IllegalArgumentException("delay must not be negative, got " + millis);
        delayMillis.set(millis);
        log.atInfo().addKeyValue("target", target).addKeyValue("delayMillis", millis).log("latency set");
    }

    public void down() {
        down = true;
        open.forEach(NetSocket::close);
        log.atInfo().addKeyValue("target", target).log("proxy down: connections closed, new ones refused");
    }

    public void up() {
        down = false;
        log.atInfo().addKeyValue("target", target).log("proxy up");
    }

    public String state() {
        return "{\"delayMillis\":" + delayMillis.get() + ",\"down\":" + down + ",\"connections\":" + open.size() + "}";
    }

    private void accept(NetSocket client) {
        if (down) {
            client.close();
            return;
        }
        client.pause();
        vertx.createNetClient().connect(target.port(), target.host()).onComplete(connected -> {
            if (connected.failed() || down) {
                log.atInfo().addKeyValue("target", target).addKeyValue("down", down)
                        .addKeyValue("error", connected.failed() ? String.valueOf(connected.cause()) : "")
                        .log("connection refused: upstream not reached or proxy went down");
                client.close();
                if (connected.succeeded()) connected.result().close();
                return;
            }
            NetSocket upstream = connected.result();
            open.add(client);
            open.add(upstream);
            relay(client, upstream);
            relay(upstream, client);
            client.resume();
        });
    }

    /** Copies {@code from} to {@code to}, each chunk after the delay and never before the chunk ahead of it. */
    private void relay(NetSocket from, NetSocket to) {
        AtomicLong lastDue = new AtomicLong();
        from.handler(chunk -> forwardLater(to, chunk, lastDue));
        from.closeHandler(closed -> {
            open.remove(from);
            long wait = Math.max(1, lastDue.get() - System.currentTimeMillis() + 1);
            vertx.setTimer(wait, t -> to.close());
        });
    }

    private void forwardLater(NetSocket to, Buffer chunk, AtomicLong lastDue) {
        long now = System.currentTimeMillis();
        long due = Math.max(now + delayMillis.get(), lastDue.get());
        lastDue.set(due);
        if (due <= now) {
            to.write(chunk);
        } else {
            vertx.setTimer(due - now, t -> {
                if (!down) to.write(chunk);
            });
        }
    }

    private void control(HttpServerRequest request) {
        String path = request.path();
        try {
            switch (path) {
                case "/healthz" -> { }
                case "/state" -> { }
                case "/delay" -> delay(Long.parseLong(required(request, "ms")));
                case "/down" -> down();
                case "/up" -> up();
                default -> {
                    request.response().setStatusCode(404).end("unknown path " + path + "\n");
                    return;
                }
            }
            request.response().putHeader("content-type", "application/json").end(state() + "\n");
        } catch (IllegalArgumentException e) {
            request.response().setStatusCode(400).end(e.getMessage() + "\n");
        }
    }

    private static String required(HttpServerRequest request, String param) {
        String value = request.getParam(param);
        if (value == null) throw new IllegalArgumentException("query parameter " + param + " is required");
        return value;
    }

    public Future<Void> close() {
        open.forEach(NetSocket::close);
        return Future.join(proxy == null ? Future.succeededFuture() : proxy.close(),
                control == null ? Future.succeededFuture() : control.close()).mapEmpty();
    }
}
