package dev.berth.manager.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.objects.InvalidObjectException;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.util.ArrayList;
import java.util.List;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves {@link ObjectService} on the Kubernetes REST paths, with discovery, Table printing and
 * watches. Every service call, body parsing included, runs on the caller's single state thread;
 * the event loop only moves bytes. With {@link #readingFromTheStore}, plain reads run on a read thread instead.
 */
public final class ApiServer {
    public static final long DEFAULT_BODY_LIMIT_BYTES = 3L * 1024 * 1024;
    private static final Logger log = LoggerFactory.getLogger(ApiServer.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ObjectService service;
    private final ExecutorService stateExecutor;
    private final GroupedStateWork grouped;
    private final long bodyLimitBytes;
    private final List<Consumer<Router>> extraRoutes = new ArrayList<>();
    private final HealthEndpoints health = new HealthEndpoints();
    private final GracefulShutdown shutdown = new GracefulShutdown();
    private final WatchHub watches;
    private final Clock clock;
    private final RequestRouter requests;
    private final DiscoveryRoutes discovery;
    private final RequestGuard security;
    private volatile List<Route> routes = List.of();
    /** Plain reads answered off the state thread ({@link #readingFromTheStore}); null: every request on the state thread. */
    private RequestRouter storeReads;
    private java.util.concurrent.Executor readThread;

    /**
     * watchesOrNull: without a hub, {@code ?watch=true} answers 405. security: who may do what, rate
     * limits, object limits and the audit log (the security edge's {@code ApiSecurity.limitsOnly()} serves everyone).
     */
    public ApiServer(ObjectService service, ExecutorService stateExecutor, long bodyLimitBytes, WatchHub watchesOrNull,
            Clock clock, RequestGuard security) {
        this.service = service;
        this.security = security;
        this.stateExecutor = stateExecutor;
        this.grouped = new GroupedStateWork(stateExecutor, service.store());
        this.bodyLimitBytes = bodyLimitBytes;
        this.watches = watchesOrNull;
        this.clock = clock;
        this.requests = new RequestRouter(service, clock);
        health.with(shutdown.readinessCheck());
        Discovery documents = new Discovery(service.registry());
        this.discovery = new DiscoveryRoutes(documents, new OpenApiV3(service.registry(), documents),
                new OpenApiV2(service.registry(), dev.berth.manager.schema.SchemaCatalog::bundled));
    }

    public ApiServer(ObjectService service, ExecutorService stateExecutor, long bodyLimitBytes, RequestGuard security) {
        this(service, stateExecutor, bodyLimitBytes, null, Clock.systemUTC(), security);
    }

    public ApiServer(ObjectService service, ExecutorService stateExecutor, RequestGuard security) {
        this(service, stateExecutor, DEFAULT_BODY_LIMIT_BYTES, security);
    }

    /**
     * Before {@link #start}: answer plain reads (GET of an object, its status or scale, or of a list; never a watch) on
     * readThread through {@code reads}, a service of their own over the same store, instead of on the state thread,
     * as a follower replica reads. Only for a store whose reads show only durable writes
     * ({@link dev.berth.manager.store.ObjectStore#readsShowOnlyDurableWrites}): a write answered on the state thread is
     * then visible to such a read once it is durable and no sooner, and before its reply is sent (docs/failover.md,
     * "Leader reads off the state thread").
     */
    public ApiServer readingFromTheStore(ObjectService reads, java.util.concurrent.Executor readThread) {
        if (!reads.store().readsShowOnlyDurableWrites()) {
            throw new IllegalArgumentException("this store may show a write before it is durable; its reads stay on the state thread");
        }
        this.storeReads = new RequestRouter(reads, clock);
        this.readThread = readThread;
        return this;
    }

    /** The health checks /livez, /readyz and /healthz report; add to them before {@link #start}. */
    public HealthEndpoints health() {
        return health;
    }

    /** How this API server shuts down ({@link #drain}): the delay before its listener stops, and the drain's bound. */
    public GracefulShutdown shutdown() {
        return shutdown;
    }

    /** Shuts the server down gracefully (see {@link GracefulShutdown}); blocks, bounded. Close the state after it. */
    public void drain(HttpServer server) {
        shutdown.drain(server, () -> { if (watches != null) watches.endAll(); });
    }

    /** Adds routes served next to the Kubernetes paths (e.g. /metrics); call before {@link #start}. */
    public ApiServer withRoutes(Consumer<Router> routes) {
        extraRoutes.add(routes);
        return this;
    }

    public Future<HttpServer> start(Vertx vertx, String host, int port) {
        return start(vertx, host, port, new HttpServerOptions());
    }

    /** Serves with the given options (TLS among them), and the security's connection timeouts. */
    public Future<HttpServer> start(Vertx vertx, String host, int port, HttpServerOptions options) {
        Router router = router(vertx);
        this.routes = List.copyOf(router.getRoutes());
        // read the schemas off the event loop now, so the first write does not wait for them on the state thread
        vertx.executeBlocking(dev.berth.manager.schema.SchemaCatalog::bundled, false);
        return security.serve(vertx, vertx.createHttpServer(options), router).listen(port, host);
    }

    /** The routes of the router {@link #start} serves, in order (tests enumerate them); empty before it. */
    public List<Route> routes() {
        return routes;
    }

    private static final String VERSION = VersionInfo.body().toString();

    public Router router(Vertx vertx) {
        Router router = Router.router(vertx);
        router.route().handler(security::guard);
        health.mount(router);
        router.get("/version").handler(ctx -> ctx.response().putHeader("content-type", "application/json")
                .end(VERSION));
        extraRoutes.forEach(routes -> routes.accept(router));
        discovery.mount(router);
        BodyHandler bodies = BodyHandler.create(false).setBodyLimit(bodyLimitBytes);
        router.route("/api/*").handler(bodies).handler(this::handle);
        router.route("/apis/*").handler(bodies).handler(this::handle);
        router.route().handler(ctx -> send(ctx, ApiReply.failure(ApiException.noSuchResource()), "", null));
        router.route().failureHandler(this::failed);
        return router;
    }

    private void handle(RoutingContext ctx) {
        ApiRequest request = request(ctx);
        if (request.method().equals("GET") && (request.flag("watch") || "1".equals(request.param("watch")))) {
            watch(ctx, request);
            return;
        }
        RequestGuard.WriteCheck writes = security.writeCheck(ctx);
        AtomicBoolean dryRunInBody = new AtomicBoolean();
        CompletableFuture<ApiReply> work;
        if (storeReads != null && request.method().equals("GET")) {
            // a plain read, from the store on the read thread: it shows only durable writes
            try {
                work = CompletableFuture.supplyAsync(() -> answer(request, storeReads, writes), readThread);
            } catch (java.util.concurrent.RejectedExecutionException closing) {
                work = CompletableFuture.failedFuture(closing);
            }
        } else {
            // answered on the state thread in a group of requests; the reply waits until the group's writes are durable
            work = grouped.submit(() -> {
                dryRunInBody.set(DeleteOptions.dryRunInBody(request));
                return answer(request, requests, writes);
            });
        }
        Future.fromCompletionStage(work, ctx.vertx().getOrCreateContext())
                .onSuccess(reply -> {
                    if (dryRunInBody.get()) security.markDryRun(ctx);
                    send(ctx, reply, request.method(), request.path());
                })
                .onFailure(e -> send(ctx, unexpected(e, request), request.method(), request.path()));
    }

    private ApiRequest request(RoutingContext ctx) {
        Map<String, String> query = new HashMap<>();
        ctx.request().params().forEach(e -> query.putIfAbsent(e.getKey(), e.getValue()));
        byte[] body = ctx.body() == null || ctx.body().buffer() == null ? new byte[0] : ctx.body().buffer().getBytes();
        return new ApiRequest(ctx.request().method().name(), security.routedPath(ctx), ctx.request().getHeader("content-type"),
                ctx.request().getHeader("accept"), query, body);
    }

    /** Runs on the state thread, or for a plain read with {@link #storeReads} on the read thread. */
    private ApiReply answer(ApiRequest request, RequestRouter requests, RequestGuard.WriteCheck writes) {
        ResourcePath path = null;
        try {
            ApiRoute route = ApiRoute.resolve(request.path(), service.registry());
            path = route.path();
            request = ProtobufRequests.asJson(request);
            checkWrite(request, route, writes);
            return requests.answer(request, route, patched -> writes.check(route.path(), patched, encodedSize(patched))).about(path);
        } catch (ApiException e) {
            return ApiReply.failure(e).about(path);
        } catch (InvalidObjectException e) {
            return ApiReply.failure(ApiException.of(e, null, null)).about(path);
        }
    }

    /** The size the object would have stored; counting stops past twice the object size limit. */
    private static int encodedSize(ObjectNode object) {
        return (int) StoredSizeLimit.encodedBytes(object, 2L * StoredSizeLimit.MAX_OBJECT_BYTES);
    }

    /**
     * Object limits and priority-class use, on the parsed body of a create, replace or merge patch,
     * before any hook sees it. The result of every patch is checked again in {@link RequestRouter}.
     */
    private void checkWrite(ApiRequest request, ApiRoute route, RequestGuard.WriteCheck writes) {
        String method = request.method();
        if (!method.equals("POST") && !method.equals("PUT") && !method.equals("PATCH")) return;
        String contentType = request.contentType();
        String media = ManifestReader.mediaType(contentType);
        if (media.equals("application/json-patch+json")) return;
        String readAs = ManifestReader.isJson(contentType) ? contentType
                : ManifestReader.isYaml(contentType) || media.endsWith("+yaml") ? "application/yaml" : null;
        if (readAs == null) return;
        List<ObjectNode> documents = ManifestReader.read(request.body(), readAs);
        if (documents.size() != 1) return;
        // a patch's nulls delete keys (RFC 7386): check what it sets; RequestRouter checks the merged result again
        ObjectNode written = method.equals("PATCH") ? JsonMergePatch.withoutNulls(documents.get(0)) : documents.get(0);
        writes.check(route.path(), written, encodedSize(written));
    }

    private void watch(RoutingContext ctx, ApiRequest request) {
        try {
            if (watches == null) throw ApiException.methodNotAllowed("watch");
            if (shutdown.draining()) throw new ApiException(503, "ServiceUnavailable", "the manager is shutting down", null, null, null, List.of());
            ApiRoute route = ApiRoute.resolve(request.path(), service.registry());
            if (!route.collection() || route.status()) throw ApiException.methodNotAllowed("watch of a single object; use fieldSelector=metadata.name=...");
            HttpServerResponse response = ctx.response().setChunked(true).putHeader("content-type", "application/json");
            WatchStream stream = new WatchStream(route.path(), request, service, clock, response, ctx.vertx().getOrCreateContext());
            WatchOptions options = WatchOptions.of(request);
            List<Long> timers = new ArrayList<>();
            String timeout = request.param("timeoutSeconds");
            if (timeout != null && timeout.matches("\\d{1,7}")) {
                timers.add(ctx.vertx().setTimer(Math.max(1, Long.parseLong(timeout)) * 1000, id -> stream.close()));
            }
            if (options.allowWatchBookmarks()) {
                timers.add(ctx.vertx().setPeriodic(watches.bookmarkInterval().toMillis(), id -> watches.bookmark(stream)));
            }
            response.endHandler(v -> timers.forEach(ctx.vertx()::cancelTimer));
            response.closeHandler(v -> {
                timers.forEach(ctx.vertx()::cancelTimer);
                stream.close();
            });
            CompletableFuture<Void> opened = CompletableFuture.runAsync(() -> watches.open(stream, options), stateExecutor);
            Future.fromCompletionStage(opened, ctx.vertx().getOrCreateContext())
                    .onSuccess(v -> { if (!response.headWritten()) response.setStatusCode(200).write(Buffer.buffer()); })
                    .onFailure(e -> {
                        Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
                        stream.close();
                        send(ctx, cause instanceof ApiException api ? ApiReply.failure(api) : unexpected(cause, request), "GET", request.path());
                    });
        } catch (ApiException e) {
            send(ctx, ApiReply.failure(e), "GET", request.path());
        }
    }

    private static ApiReply unexpected(Throwable e, ApiRequest request) {
        Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
        log.atError().setMessage("request failed unexpectedly")
                .addKeyValue("verb", request.method()).addKeyValue("path", request.path()).setCause(cause).log();
        return ApiReply.failure(ApiException.internal());
    }

    private void failed(RoutingContext ctx) {
        String method = ctx.request().method().name();
        if (ctx.statusCode() == 413) {
            send(ctx, ApiReply.failure(ApiException.tooLarge(bodyLimitBytes)), method, ctx.request().path());
        } else {
            Throwable failure = ctx.failure() == null ? new IllegalStateException("status " + ctx.statusCode()) : ctx.failure();
            log.atError().setMessage("request failed unexpectedly").addKeyValue("verb", method)
                    .addKeyValue("path", ctx.request().path()).setCause(failure).log();
            send(ctx, ApiReply.failure(ApiException.internal()), method, ctx.request().path());
        }
    }

    static void send(RoutingContext ctx, ApiReply reply, String verb, String path) {
        HttpServerResponse response = ctx.response();
        if (response.ended()) return;
        if (response.headWritten()) {
            response.end();
            return;
        }
        byte[] bytes;
        try {
            bytes = JSON.writeValueAsBytes(reply.body());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        response.setStatusCode(reply.code()).putHeader("content-type", "application/json");
        for (String warning : reply.warnings()) {
            response.headers().add("Warning", warningHeader(warning));
        }
        response.end(Buffer.buffer(bytes));
        if (verb != null && !verb.equals("GET") && !verb.isEmpty()) logWrite(verb, path, reply);
    }

    /**
     * A Warning header (code 299) whose text is a quoted-string: backslashes and quotes escaped, and control
     * characters (a field name in a hostile body may carry them) replaced by '?', since a header value may not
     * hold them; Vert.x would refuse the whole header and the request would never be answered.
     */
    static String warningHeader(String warning) {
        StringBuilder text = new StringBuilder(warning.length() + 8).append("299 - \"");
        warning.codePoints().forEach(c -> {
            if (c == '\\' || c == '"') text.append('\\').append((char) c);
            else if (Character.isISOControl(c)) text.append('?');
            else text.appendCodePoint(c);
        });
        return text.append('"').toString();
    }

    /** One line per write; never the body. */
    private static void logWrite(String verb, String path, ApiReply reply) {
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
