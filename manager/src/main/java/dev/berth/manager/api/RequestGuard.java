package dev.berth.manager.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;

/**
 * What {@link ApiServer} asks of the security in front of it (the security edge implements it, so
 * the API does not depend on the security package): a guard that runs first on every request and
 * decides the path the handlers answer on, the server's connection handling, and the check of a
 * write's parsed body for the caller the guard admitted.
 */
public interface RequestGuard {
    /** Runs first on every request: refuses it (and ends the response) or passes it to the next handler. */
    void guard(RoutingContext ctx);

    /** Serves requests on server, with the guard's connection timeouts. */
    HttpServer serve(Vertx vertx, HttpServer server, Handler<HttpServerRequest> requests);

    /** The path the guard decided on, which the handlers answer on (the raw path when no guard ran). */
    String routedPath(RoutingContext ctx);

    /** The request turned out to be a dry run that its query did not show (a DeleteOptions body said so). */
    void markDryRun(RoutingContext ctx);

    /** The check of the request's writes, for the caller the guard admitted; taken on the event loop, run on the state thread. */
    WriteCheck writeCheck(RoutingContext ctx);

    /** Checks an object about to be written at path, before the write; throws to refuse it. */
    @FunctionalInterface
    interface WriteCheck {
        void check(ResourcePath path, ObjectNode object, int encodedBytes);
    }
}
