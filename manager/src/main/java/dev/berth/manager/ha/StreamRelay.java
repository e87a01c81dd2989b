package dev.berth.manager.ha;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpServerResponse;
import java.time.Duration;

/**
 * Relays a stream the leader answers (a watch's JSON lines, the dashboard's server-sent events) to the caller, with
 * back-pressure, and can end it between two events. A replica that stops ends the streams it forwards this way, as the
 * leader ends its own watches: the caller reads a stream that ended (kubectl's {@code get -w} exits 0, client-go
 * re-watches from the last resourceVersion it saw) rather than a connection reset in the middle of an event.
 */
final class StreamRelay {
    /** How long an end waits for the event being relayed to complete before the stream is cut instead. */
    static final Duration END_BOUND = Duration.ofSeconds(1);

    private final HttpClientResponse from;
    private final HttpServerResponse to;
    private final Context context;
    private final FrameBoundary boundary;
    private final Promise<Void> done = Promise.promise();
    private boolean ending;
    private boolean finished;
    private boolean upstreamEnded;

    private StreamRelay(HttpClientResponse from, HttpServerResponse to, FrameBoundary boundary) {
        this.from = from;
        this.to = to;
        this.boundary = boundary;
        this.context = Vertx.currentContext();
    }

    /**
     * Starts relaying on the current (event-loop) context, the caller's status and headers set; they are sent at once,
     * as the leader sends them, so a watch with nothing to report yet is open for its caller too.
     */
    static StreamRelay start(HttpClientResponse from, HttpServerResponse to, FrameBoundary boundary) {
        StreamRelay relay = new StreamRelay(from, to, boundary);
        to.writeHead();
        to.closeHandler(v -> relay.finish(false));
        from.exceptionHandler(e -> relay.finish(false));
        from.endHandler(v -> {
            relay.upstreamEnded = true;
            relay.finish(true);
        });
        from.handler(relay::relay);
        return relay;
    }

    Future<Void> done() {
        return done.future();
    }

    /** From any thread: ends the stream after the event being relayed, or at once between two; cut past the bound. */
    void endBetweenEvents() {
        context.runOnContext(v -> {
            if (finished) return;
            if (boundary.atFrameEnd()) {
                finish(true);
                return;
            }
            ending = true;
            context.owner().setTimer(END_BOUND.toMillis(), id -> finish(false));
        });
    }

    private void relay(Buffer data) {
        if (finished) return;
        if (ending) {
            int end = boundary.firstFrameEnd(data);
            if (end < 0) {
                boundary.relayed(data);
                to.write(data);
                return;
            }
            to.write(data.slice(0, end));
            finish(true);
            return;
        }
        boundary.relayed(data);
        to.write(data);
        if (to.writeQueueFull()) {
            from.pause();
            to.drainHandler(v -> from.resume());
        }
    }

    /** Ends the caller's stream (cleanly, or by a reset) and lets go of the leader's, once. */
    private void finish(boolean cleanly) {
        if (finished) return;
        finished = true;
        if (cleanly) to.end();
        else to.reset();
        if (!upstreamEnded) from.request().reset();
        done.tryComplete();
    }
}
