package dev.berth.manager.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.Optional;

/**
 * Discovery on the router: the legacy documents of {@link Discovery} as application/json (kubectl
 * falls back to them from aggregated discovery), and a clean 404 Status for the OpenAPI documents
 * except for the minimal {@link OpenApiV3} kubectl needs to learn that the server validates fields.
 */
final class DiscoveryRoutes {
    private final Discovery discovery;
    private final OpenApiV3 openApi;
    private final AggregatedDiscovery aggregated;

    DiscoveryRoutes(Discovery discovery, OpenApiV3 openApi) {
        this.discovery = discovery;
        this.openApi = openApi;
        this.aggregated = new AggregatedDiscovery(discovery);
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
        router.getWithRegex("/openapi/v3/(.+)").handler(ctx -> reply(ctx, openApi.groupVersion(ctx.pathParam("param0"))));
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

    private static void reply(RoutingContext ctx, Optional<ObjectNode> document) {
        ApiReply reply = document.map(d -> ApiReply.ok(200, d)).orElseGet(() -> ApiReply.failure(ApiException.noSuchResource()));
        ApiServer.send(ctx, reply, "GET", ctx.request().path());
    }
}
