package dev.berth.manager.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.objects.InvalidObjectException;
import dev.berth.manager.security.UserInfo;
import dev.berth.manager.security.edge.ApiSecurity;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves {@link ObjectService} on the Kubernetes REST paths. Every service call, body parsing
 * included, runs on the caller's single state thread; the event loop only moves bytes.
 */
public final class ApiServer {
    public static final long DEFAULT_BODY_LIMIT_BYTES = 3L * 1024 * 1024;
    private static final Logger log = LoggerFactory.getLogger(ApiServer.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String MERGE_PATCH = "application/merge-patch+json";

    private final ObjectService service;
    private final ExecutorService stateExecutor;
    private final long bodyLimitBytes;
    private final ApiSecurity security;

    /** The answer to one request. */
    private record Reply(int code, ObjectNode body, List<String> warnings, ResourcePath target) {
        Reply about(ResourcePath path) {
            return new Reply(code, body, warnings, path);
        }
    }

    public ApiServer(ObjectService service, ExecutorService stateExecutor, long bodyLimitBytes) {
        this(service, stateExecutor, bodyLimitBytes, ApiSecurity.limitsOnly());
    }

    public ApiServer(ObjectService service, ExecutorService stateExecutor, long bodyLimitBytes, ApiSecurity security) {
        this.service = service;
        this.stateExecutor = stateExecutor;
        this.bodyLimitBytes = bodyLimitBytes;
        this.security = security;
    }

    public ApiServer(ObjectService service, ExecutorService stateExecutor) {
        this(service, stateExecutor, DEFAULT_BODY_LIMIT_BYTES);
    }

    public Future<HttpServer> start(Vertx vertx, String host, int port) {
        return start(vertx, host, port, new HttpServerOptions());
    }

    /** With server options, e.g. TLS. */
    public Future<HttpServer> start(Vertx vertx, String host, int port, HttpServerOptions options) {
        return vertx.createHttpServer(options).requestHandler(router(vertx)).listen(port, host);
    }

    public Router router(Vertx vertx) {
        Router router = Router.router(vertx);
        router.route().handler(security::guard);
        router.get("/healthz").handler(ctx -> ctx.response().putHeader("content-type", "text/plain").end("ok"));
        router.get("/readyz").handler(ctx -> ctx.response().putHeader("content-type", "text/plain").end("ok"));
        router.get("/version").handler(ctx -> ctx.response().putHeader("content-type", "application/json")
                .end("{\"major\":\"1\",\"minor\":\"32\",\"gitVersion\":\"v1.32.0-berth\"}"));
        BodyHandler bodies = BodyHandler.create(false).setBodyLimit(bodyLimitBytes);
        router.route("/api/*").handler(bodies).handler(this::handle);
        router.route("/apis/*").handler(bodies).handler(this::handle);
        router.route().handler(ctx -> send(ctx, failure(ApiException.noSuchResource()), "", null));
        router.route().failureHandler(this::failed);
        return router;
    }

    private void handle(RoutingContext ctx) {
        HttpMethod method = ctx.request().method();
        String path = ctx.request().path();
        String contentType = ctx.request().getHeader("content-type");
        String labelSelector = ctx.request().getParam("labelSelector");
        UserInfo caller = security.caller(ctx);
        byte[] body = ctx.body() == null || ctx.body().buffer() == null ? new byte[0] : ctx.body().buffer().getBytes();
        CompletableFuture<Reply> work = CompletableFuture.supplyAsync(
                () -> answer(method, path, contentType, labelSelector, body, caller), stateExecutor);
        Future.fromCompletionStage(work, ctx.vertx().getOrCreateContext())
                .onSuccess(reply -> send(ctx, reply, method.name(), path))
                .onFailure(e -> send(ctx, unexpected(e, method, path), method.name(), path));
    }

    /** Runs on the state thread. */
    private Reply answer(HttpMethod method, String requestPath, String contentType, String labelSelector, byte[] body, UserInfo caller) {
        ResourcePath path = null;
        try {
            ApiRoute route = ApiRoute.resolve(requestPath, service.registry());
            path = route.path();
            checkWrite(method, route, contentType, body, caller);
            return dispatch(method, route, contentType, labelSelector, body).about(path);
        } catch (ApiException e) {
            return failure(e).about(path);
        } catch (InvalidObjectException e) {
            return failure(ApiException.of(e, null, null)).about(path);
        }
    }

    private Reply dispatch(HttpMethod method, ApiRoute route, String contentType, String labelSelector, byte[] body) {
        ResourcePath path = route.path();
        if (route.collection()) {
            if (method == HttpMethod.GET) return ok(200, service.list(path, labelSelector));
            if (method == HttpMethod.POST && path.namespace() != null) return ok(201, service.create(path, single(body, contentType)));
        } else if (route.status()) {
            if (method == HttpMethod.GET) return ok(200, service.getStatus(path));
            if (method == HttpMethod.PUT) return ok(200, service.replaceStatus(path, single(body, contentType)));
            if (method == HttpMethod.PATCH) return ok(200, service.mergePatchStatus(path, patch(body, contentType)));
        } else {
            if (method == HttpMethod.GET) return ok(200, service.get(path));
            if (method == HttpMethod.PUT) return ok(200, service.replace(path, single(body, contentType)));
            if (method == HttpMethod.PATCH) return ok(200, service.mergePatch(path, patch(body, contentType)));
            if (method == HttpMethod.DELETE) return ok(200, service.delete(path));
        }
        throw ApiException.methodNotAllowed(method.name());
    }

    /** Object limits and priority-class use, on the parsed body of a write, before any hook sees it. */
    private void checkWrite(HttpMethod method, ApiRoute route, String contentType, byte[] body, UserInfo caller) {
        if (method != HttpMethod.POST && method != HttpMethod.PUT && method != HttpMethod.PATCH) return;
        String media = ManifestReader.mediaType(contentType);
        String readAs = ManifestReader.isJson(contentType) ? contentType
                : ManifestReader.isYaml(contentType) || media.endsWith("+yaml") ? "application/yaml" : null;
        if (readAs == null) return;
        List<ObjectNode> documents = ManifestReader.read(body, readAs);
        if (documents.size() == 1) security.checkWrite(caller, route.path(), documents.get(0), body.length);
    }

    private static ObjectNode single(byte[] body, String contentType) {
        if (!ManifestReader.isJson(contentType) && !ManifestReader.isYaml(contentType)) {
            throw ApiException.unsupportedMediaType(contentType);
        }
        List<ObjectNode> documents = ManifestReader.read(body, contentType);
        if (documents.size() != 1) throw ApiException.badRequest("the request body must hold exactly one object, not " + documents.size());
        return documents.get(0);
    }

    private static ObjectNode patch(byte[] body, String contentType) {
        if (!ManifestReader.mediaType(contentType).equals(MERGE_PATCH)) throw ApiException.unsupportedMediaType(contentType);
        return ManifestReader.read(body, contentType).get(0);
    }

    private static Reply ok(int code, ObjectNode body) {
        return new Reply(code, body, List.of(), null);
    }

    private static Reply ok(int code, Outcome outcome) {
        return new Reply(code, outcome.object(), outcome.warnings(), null);
    }

    private static Reply failure(ApiException e) {
        return new Reply(e.code(), StatusBody.of(e), List.of(), null);
    }

    private static Reply unexpected(Throwable e, HttpMethod method, String path) {
        Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
        log.atError().setMessage("request failed unexpectedly")
                .addKeyValue("verb", method.name()).addKeyValue("path", path).setCause(cause).log();
        return failure(ApiException.internal());
    }

    private void failed(RoutingContext ctx) {
        String method = ctx.request().method().name();
        if (ctx.statusCode() == 413) {
            send(ctx, failure(ApiException.tooLarge(bodyLimitBytes)), method, ctx.request().path());
        } else {
            send(ctx, unexpected(ctx.failure() == null ? new IllegalStateException("status " + ctx.statusCode()) : ctx.failure(),
                    ctx.request().method(), ctx.request().path()), method, ctx.request().path());
        }
    }

    private static void send(RoutingContext ctx, Reply reply, String verb, String path) {
        HttpServerResponse response = ctx.response();
        if (response.ended()) return;
        byte[] bytes;
        try {
            bytes = JSON.writeValueAsBytes(reply.body());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        response.setStatusCode(reply.code()).putHeader("content-type", "application/json");
        for (String warning : reply.warnings()) {
            response.headers().add("Warning", "299 - \"" + warning.replace("\\", "\\\\").replace("\"", "\\\"") + "\"");
        }
        response.end(Buffer.buffer(bytes));
        if (verb != null && !verb.equals("GET") && !verb.isEmpty()) logWrite(verb, path, reply);
    }

    /** One line per write; never the body. */
    private static void logWrite(String verb, String path, Reply reply) {
        ResourcePath target = reply.target();
        String name = target == null ? null : target.name();
        if (name == null) {
            name = reply.code() < 300 ? reply.body().path("metadata").path("name").asText(null)
                    : reply.body().path("details").path("name").asText(null);
        }
        log.atInfo().setMessage("api write")
                .addKeyValue("verb", verb)
                .addKeyValue("resource", target == null ? path : target.type().qualifiedName())
                .addKeyValue("namespace", target == null ? null : target.namespace())
                .addKeyValue("name", name)
                .addKeyValue("code", reply.code())
                .log();
    }
}
