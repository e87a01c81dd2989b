package dev.berth.manager.dashboard;

import dev.berth.manager.api.ApiException;
import dev.berth.manager.api.StatusBody;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.net.SocketAddress;
import io.vertx.core.net.impl.ConnectionBase;
import io.vertx.ext.web.RoutingContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET /dashboard/stream}: server-sent events. At most {@code perOwner} streams per user (an
 * address when security is off) and {@code total} in all; past either, 429. A listener is never
 * written to while its write queue is full: it misses snapshots (and gets the latest when it drains),
 * and one still full at two heartbeats in a row is dropped, so a client that stops reading holds no
 * more than the queue's high-water mark and one snapshot. While anyone listens, a snapshot is taken on the
 * state thread at most every {@code interval} (never two at once, each bounded by {@code bound}); when
 * it differs from the last one sent, every listener gets it as an {@code event: snapshot}. A new
 * listener gets the last snapshot at once. A comment line every {@code heartbeat} keeps proxies from
 * closing an idle stream. All bookkeeping runs on the event-loop context of the first listener.
 */
public final class DashboardStream {
    private static final Logger log = LoggerFactory.getLogger(DashboardStream.class);
    public static final String CONTENT_TYPE = "text/event-stream; charset=utf-8";
    public static final int DEFAULT_PER_OWNER = 4;
    public static final int DEFAULT_TOTAL = 64;

    private final Supplier<CompletableFuture<String>> snapshotOnStateThread;
    private final Duration interval;
    private final Duration heartbeat;
    private final Duration bound;
    private final List<Listener> listeners = new ArrayList<>();
    private final StreamSlots slots;
    private final Function<RoutingContext, String> owner;
    private final AtomicLong bytesWritten = new AtomicLong();
    private final AtomicInteger dropped = new AtomicInteger();
    private volatile Context context;
    private long tickTimer = -1;
    private long heartbeatTimer = -1;
    private boolean taking;
    private String last;

    public DashboardStream(Supplier<CompletableFuture<String>> snapshotOnStateThread, Duration interval, Duration heartbeat,
                           Duration bound) {
        this.snapshotOnStateThread = snapshotOnStateThread;
        this.interval = interval;
        this.heartbeat = heartbeat;
        this.bound = bound;
        this.slots = new StreamSlots(DEFAULT_PER_OWNER, DEFAULT_TOTAL);
        this.owner = DashboardStream::remoteAddress;
    }

    /** With caps: perOwner streams for each owner (owner names who a request is from), total in all. */
    public DashboardStream(Supplier<CompletableFuture<String>> snapshotOnStateThread, Duration interval, Duration heartbeat,
                           Duration bound, int perOwner, int total, Function<RoutingContext, String> owner) {
        this.snapshotOnStateThread = snapshotOnStateThread;
        this.interval = interval;
        this.heartbeat = heartbeat;
        this.bound = bound;
        this.slots = new StreamSlots(perOwner, total);
        this.owner = owner;
    }

    public static String remoteAddress(RoutingContext ctx) {
        SocketAddress remote = ctx.request().remoteAddress();
        return "address:" + (remote == null ? "unknown" : remote.hostAddress());
    }

    /** One open stream, with the slot it holds and whether it is behind. */
    private static final class Listener {
        final HttpServerResponse response;
        final HttpConnection connection;
        final String owner;
        boolean released;
        boolean missed;
        boolean fullAtLastBeat;

        Listener(HttpServerResponse response, HttpConnection connection, String owner) {
            this.response = response;
            this.connection = connection;
            this.owner = owner;
        }
    }

    public void handle(RoutingContext ctx) {
        HttpServerResponse response = ctx.response();
        String who = owner.apply(ctx);
        String refusal = slots.tryAcquire(who);
        if (refusal != null) {
            log.atInfo().addKeyValue("owner", who).log("dashboard stream refused: " + refusal);
            ctx.response().setStatusCode(429).putHeader("Retry-After", "10").putHeader("content-type", "application/json")
                    .end(StatusBody.of(new ApiException(429, "TooManyRequests", refusal, null, null, null, List.of())).toString());
            return;
        }
        Listener listener = new Listener(response, ctx.request().connection(), who);
        response.setChunked(true)
                .putHeader("content-type", CONTENT_TYPE)
                .putHeader("cache-control", "no-cache")
                .putHeader("x-accel-buffering", "no");
        response.closeHandler(v -> context.runOnContext(x -> unsubscribe(ctx.vertx(), listener)));
        response.exceptionHandler(e -> context.runOnContext(x -> unsubscribe(ctx.vertx(), listener)));
        write(listener, ": connected\n\n");
        Context here = ctx.vertx().getOrCreateContext();
        synchronized (this) {
            if (context == null) context = here;
        }
        context.runOnContext(v -> subscribe(ctx.vertx(), listener));
        // a graceful shutdown ends the stream cleanly: EventSource reconnects, through the load balancer, elsewhere
        // (HTTP/2 carries several streams on a connection, and it keeps one handler: each ends all of them)
        ctx.request().connection().shutdownHandler(v -> context.runOnContext(x -> endStreamsOn(ctx.vertx(), listener.connection)));
    }

    private void endStreamsOn(Vertx vertx, HttpConnection connection) {
        for (Listener listener : List.copyOf(listeners)) {
            if (listener.connection != connection) continue;
            unsubscribe(vertx, listener);
            if (!listener.response.ended() && !listener.response.closed()) listener.response.end();
        }
    }

    /** Listeners currently subscribed (for tests and logs). */
    public int listeners() {
        return listeners.size();
    }

    /** Bytes handed to listeners' connections so far (tests: what a listener that never reads can cost). */
    public long bytesWritten() {
        return bytesWritten.get();
    }

    /** Listeners dropped because they stopped reading. */
    public int dropped() {
        return dropped.get();
    }

    private void subscribe(Vertx vertx, Listener listener) {
        HttpServerResponse response = listener.response;
        if (response.closed()) {
            release(listener);
            return;
        }
        listeners.add(listener);
        response.drainHandler(v -> context.runOnContext(x -> drained(listener)));
        if (last != null) send(listener, last);
        if (tickTimer < 0) {
            tickTimer = vertx.setPeriodic(0, interval.toMillis(), id -> tick());
            heartbeatTimer = vertx.setPeriodic(heartbeat.toMillis(), id -> beat());
        }
    }

    private void release(Listener listener) {
        if (listener.released) return;
        listener.released = true;
        slots.release(listener.owner);
    }

    private void drained(Listener listener) {
        listener.fullAtLastBeat = false;
        if (listener.missed && last != null && listeners.contains(listener)) send(listener, last);
    }

    private void unsubscribe(Vertx vertx, Listener listener) {
        release(listener);
        listeners.remove(listener);
        if (listeners.isEmpty() && tickTimer >= 0) {
            vertx.cancelTimer(tickTimer);
            vertx.cancelTimer(heartbeatTimer);
            tickTimer = -1;
            heartbeatTimer = -1;
            last = null;
        }
    }

    private void tick() {
        if (taking || listeners.isEmpty()) return;
        taking = true;
        CompletableFuture<String> snapshot;
        try {
            snapshot = snapshotOnStateThread.get().orTimeout(bound.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RuntimeException stateThreadGone) {
            snapshot = CompletableFuture.failedFuture(stateThreadGone);
        }
        Future.fromCompletionStage(snapshot, context)
                .onSuccess(this::publish)
                .onFailure(e -> log.atWarn().addKeyValue("boundMillis", bound.toMillis()).setCause(e)
                        .log("dashboard snapshot not taken; listeners keep the last one"))
                .onComplete(done -> taking = false);
    }

    private void publish(String snapshot) {
        if (snapshot.equals(last) || listeners.isEmpty()) return;
        last = snapshot;
        for (Listener listener : List.copyOf(listeners)) send(listener, snapshot);
    }

    /** A listener whose queue was full at the last heartbeat and still is has stopped reading: drop it. */
    private void beat() {
        for (Listener listener : List.copyOf(listeners)) {
            HttpServerResponse response = listener.response;
            if (response.closed()) continue;
            if (!response.writeQueueFull()) {
                listener.fullAtLastBeat = false;
                write(listener, ": heartbeat\n\n");
            } else if (!listener.fullAtLastBeat) {
                listener.fullAtLastBeat = true;
            } else {
                dropped.incrementAndGet();
                log.atInfo().addKeyValue("owner", listener.owner).log("dashboard listener dropped: it stopped reading");
                listeners.remove(listener);
                release(listener);
                closeAtOnce(listener.connection);
            }
        }
    }

    /**
     * A graceful close waits for the queued writes to go out, which they never will to a client that
     * does not read. Vert.x has no abortive close for HTTP/1.x, so reset the socket underneath it
     * (linger 0: the kernel drops what it still holds), past the handlers that would flush first.
     */
    private static void closeAtOnce(HttpConnection connection) {
        if (connection instanceof ConnectionBase base) {
            Channel channel = base.channel();
            channel.config().setOption(ChannelOption.SO_LINGER, 0);
            channel.unsafe().close(channel.voidPromise());
        } else {
            connection.close();
        }
    }

    /** The snapshot is one line of JSON, so one data: line frames it. */
    private void send(Listener listener, String snapshot) {
        listener.missed = !write(listener, "event: snapshot\ndata: " + snapshot + "\n\n");
    }

    /** Writes unless the connection is closed or its write queue is full; whether it wrote. */
    private boolean write(Listener listener, String text) {
        HttpServerResponse response = listener.response;
        if (response.closed() || response.writeQueueFull()) return false;
        bytesWritten.addAndGet(text.length());
        response.write(text);
        return true;
    }
}
