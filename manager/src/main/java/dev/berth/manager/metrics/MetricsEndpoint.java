package dev.berth.manager.metrics;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET /metrics} in Prometheus text format. Before each scrape the gauges are refreshed on the
 * state thread; if it does not answer within the bound, the scrape serves the last gauges rather than
 * fail (a busy scheduler must not blank the dashboards). Not authenticated yet: see docs/operations.md.
 */
public final class MetricsEndpoint {
    public static final String PATH = "/metrics";
    private static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
    private static final Logger log = LoggerFactory.getLogger(MetricsEndpoint.class);

    private final BerthMetrics metrics;
    private final Supplier<CompletableFuture<?>> refreshOnStateThread;
    private final Duration refreshBound;

    public MetricsEndpoint(BerthMetrics metrics, Supplier<CompletableFuture<?>> refreshOnStateThread, Duration refreshBound) {
        this.metrics = metrics;
        this.refreshOnStateThread = refreshOnStateThread;
        this.refreshBound = refreshBound;
    }

    public void register(Router router) {
        router.get(PATH).handler(this::scrape);
    }

    private void scrape(RoutingContext ctx) {
        Context context = ctx.vertx().getOrCreateContext();
        CompletableFuture<Void> refreshed = refreshOnStateThread.get()
                .orTimeout(refreshBound.toMillis(), TimeUnit.MILLISECONDS)
                .handle((ignored, failure) -> {
                    if (failure != null) {
                        log.atWarn().addKeyValue("boundMillis", refreshBound.toMillis()).setCause(failure)
                                .log("metrics gauges not refreshed in time; serving the last values");
                    }
                    return null;
                });
        Future.fromCompletionStage(refreshed, context)
                .compose(ignored -> context.executeBlocking(metrics::scrape, false))
                .onSuccess(body -> ctx.response().putHeader("content-type", CONTENT_TYPE).end(body))
                .onFailure(ctx::fail);
    }
}
