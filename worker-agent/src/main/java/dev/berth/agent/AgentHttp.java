package dev.berth.agent;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;

/** The agent's HTTP endpoints: /healthz (process up), /readyz (heartbeating), /metrics (Prometheus text). */
public final class AgentHttp {
    private final Vertx vertx;
    private final AgentHealth health;
    private final AgentMetrics metrics;
    private HttpServer server;

    public AgentHttp(Vertx vertx, AgentHealth health, AgentMetrics metrics) {
        this.vertx = vertx;
        this.health = health;
        this.metrics = metrics;
    }

    /** Starts listening; completes with the bound port. */
    public Future<Integer> start(String host, int port) {
        Router router = Router.router(vertx);
        router.get("/healthz").handler(ctx -> ctx.response().putHeader("content-type", "text/plain").end("ok\n"));
        router.get("/readyz").handler(ctx -> {
            boolean ready = health.isReady();
            ctx.response().setStatusCode(ready ? 200 : 503).putHeader("content-type", "text/plain")
                    .end(ready ? "ready\n" : "not ready: no successful heartbeat\n");
        });
        router.get("/metrics").handler(ctx -> ctx.response()
                .putHeader("content-type", "text/plain; version=0.0.4; charset=utf-8").end(metrics.scrape()));
        return vertx.createHttpServer().requestHandler(router).listen(port, host).map(s -> {
            server = s;
            return s.actualPort();
        });
    }

    public Future<Void> stop() {
        return server == null ? Future.succeededFuture() : server.close();
    }
}
