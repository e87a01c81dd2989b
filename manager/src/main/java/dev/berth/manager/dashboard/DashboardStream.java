package dev.berth.manager.dashboard;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET /dashboard/stream}: server-sent events. While anyone listens, a snapshot is taken on the
 * state thread at most every {@code interval} (never two at once, each bounded by {@code bound}); when
 * it differs from the last one sent, every listener gets it as an {@code event: snapshot}. A new
 * listener gets the last snapshot at once. A comment line every {@code heartbeat} keeps proxies from
 * closing an idle stream. All bookkeeping runs on the event-loop context of the first listener.
 */
public final class DashboardStream {
    private static final Logger log = LoggerFactory.getLogger(DashboardStream.class);
    public static final String CONTENT_TYPE = "text/event-stream; charset=utf-8";

    private final Supplier<CompletableFuture<String>> snapshotOnStateThread;
    private final Duration interval;
    private final Duration heartbeat;
    private final Duration bound;
    private final List<HttpServerResponse> listeners = new ArrayList<>();
    private Context context;
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
    }

    public void handle(RoutingContext ctx) {
        HttpServerResponse response = ctx.response();
        response.setChunked(true)
                .putHeader("content-type", CONTENT_TYPE)
                .putHeader("cache-control", "no-cache")
                .putHeader("x-accel-buffering", "no");
        response.write(": connected\n\n");
        Context here = ctx.vertx().getOrCreateContext();
        if (context == null) context = here;
        context.runOnContext(v -> subscribe(ctx.vertx(), response));
    }

    /** Listeners currently subscribed (for tests and logs). */
    public int listeners() {
        return listeners.size();
    }

    private void subscribe(Vertx vertx, HttpServerResponse response) {
        if (response.closed()) return;
        listeners.add(response);
        response.closeHandler(v -> context.runOnContext(x -> unsubscribe(vertx, response)));
        response.exceptionHandler(e -> context.runOnContext(x -> unsubscribe(vertx, response)));
        if (last != null) send(response, last);
        if (tickTimer < 0) {
            tickTimer = vertx.setPeriodic(0, interval.toMillis(), id -> tick());
            heartbeatTimer = vertx.setPeriodic(heartbeat.toMillis(), id -> beat());
        }
    }

    private void unsubscribe(Vertx vertx, HttpServerResponse response) {
        listeners.remove(response);
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
        for (HttpServerResponse listener : List.copyOf(listeners)) send(listener, snapshot);
    }

    private void beat() {
        for (HttpServerResponse listener : List.copyOf(listeners)) {
            if (!listener.closed()) listener.write(": heartbeat\n\n");
        }
    }

    /** The snapshot is one line of JSON, so one data: line frames it. */
    private static void send(HttpServerResponse response, String snapshot) {
        if (!response.closed()) response.write("event: snapshot\ndata: " + snapshot + "\n\n");
    }
}
