package dev.berth.manager.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.Optional;

/**
 * Discovery on the router: the legacy documents of {@link Discovery} as application/json (kubectl
 * falls back to them from aggregated discovery), the OpenAPI documents ({@link OpenApiV3},
 * {@link OpenApiV2}), and a clean 404 Status for any other OpenAPI path.
 */
final class DiscoveryRoutes {
    private final Discovery discovery;
    private final OpenApiV3 openApi;
    private final AggregatedDiscovery aggregated;
    private final OpenApiV2 openApiV2;

    DiscoveryRoutes(Discovery discovery, OpenApiV3 openApi, OpenApiV2 openApiV2) {
        this.discovery = discovery;
        this.openApi = openApi;
        this.aggregated = new AggregatedDiscovery(discovery);
        this.openApiV2 = openApiV2;
    }

    void mount(Router router) {
        router.get("/api").handler(ctx -> groups(ctx, discovery.coreVersions(), aggregated.core()));
        router.get("/api/").handler(ctx -> groups(ctx, discovery.coreVersions(), aggregated.core()));
        router.getWithRegex("/api/([^/]+)/?").handler(ctx -> reply(ctx, discovery.resources("", ctx.pathParam("param0"))));
        router.get("/apis").handler(ctx -> groups(ctx, discovery.groupList(), aggregated.apis()));
        router.get("/apis/").handler(ctx -> groups(ctx, discovery.groupList(), aggregated.apis()));
        router.getWithRegex("/apis/([^/]+)/?").handler(ctx -> reply(ctx, discovery.group(ctx.pathParam("param0"))));
        router.getWithRegex("/apis/([^/]+)/([^/]+)/?").handler(ctx ->
                reply(ctx, discovery.resources(ctx.pathParam("param0"), ctx.pathParam("param1"))));
        router.get("/openapi/v3").handler(ctx -> reply(ctx, Optional.of(openApi.index())));
        router.getWithRegex("/openapi/v3/(.+)").handler(ctx -> ctx.vertx().executeBlocking(() -> openApi.groupVersion(ctx.pathParam("param0")))
                .onSuccess(document -> reply(ctx, document))
                .onFailure(e -> ApiServer.send(ctx, ApiReply.failure(ApiException.internal()), "GET", ctx.request().path())));
        router.get("/openapi/v2").handler(this::openApiV2);
        router.getWithRegex("/openapi/.*").handler(ctx -> ApiServer.send(ctx, ApiReply.failure(ApiException.noSuchResource()), "GET", ctx.request().path()));
        router.get("/openapi").handler(ctx -> ApiServer.send(ctx, ApiReply.failure(ApiException.noSuchResource()), "GET", ctx.request().path()));
    }

    /** The aggregated form when the client asks for it (kubectl 1.32 does), the legacy one otherwise. */
    private static void groups(RoutingContext ctx, ObjectNode legacy, ObjectNode aggregatedList) {
        ctx.response().putHeader("Vary", "Accept");
        if (!AggregatedDiscovery.wanted(ctx.request().getHeader("accept"))) {
            reply(ctx, Optional.of(legacy));
            return;
        }
        ctx.response().putHeader("content-type", AggregatedDiscovery.MEDIA_TYPE).end(aggregatedList.toString());
    }

    private void openApiV2(RoutingContext ctx) {
        if (!OpenApiV2.acceptsJson(ctx.request().getHeader("accept"))) {
            ApiException notAcceptable = new ApiException(406, "NotAcceptable", "only the following media types are accepted: application/json",
                    null, null, null, java.util.List.of());
            ApiServer.send(ctx, ApiReply.failure(notAcceptable), "GET", ctx.request().path());
            return;
        }
        ctx.vertx().executeBlocking(openApiV2::document)
                .onSuccess(document -> reply(ctx, Optional.of(document)))
                .onFailure(e -> ApiServer.send(ctx, ApiReply.failure(ApiException.internal()), "GET", ctx.request().path()));
    }

    private static void reply(RoutingContext ctx, Optional<ObjectNode> document) {
        ApiReply reply = document.map(d -> ApiReply.ok(200, d)).orElseGet(() -> ApiReply.failure(ApiException.noSuchResource()));
        ApiServer.send(ctx, reply, "GET", ctx.request().path());
    }
}
