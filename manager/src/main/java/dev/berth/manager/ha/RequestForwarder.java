package dev.berth.manager.ha;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.PemTrustOptions;
import dev.berth.manager.security.ReplicaTrust;
import dev.berth.manager.security.edge.FrontProxyIdentity;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Passes a request on to another API server (the leader, or this replica's own leading manager) and
 * its answer back unchanged: status code, headers (Warning included) and body, streamed both ways so
 * watches work too. An unreachable target is a 503 metav1 Status with Retry-After.
 */
final class RequestForwarder implements AutoCloseable {
    private static final Set<String> HOP_BY_HOP = Set.of("connection", "keep-alive", "proxy-authenticate",
            "proxy-authorization", "te", "trailer", "transfer-encoding", "upgrade", "host", "content-length");

    /** What a follower never passes on once it authenticated the caller itself: the caller's own credentials. */
    private static final Set<String> CREDENTIALS = Set.of("authorization", "cookie");

    /** How long a forward waits for the leader to accept the connection before answering 503 (Retry-After). */
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);

    private final HttpClient client;
    /** Forwards whose answer is a stream (a watch, the dashboard's events): they never end on their own. */
    private final Set<StreamRelay> streams = java.util.concurrent.ConcurrentHashMap.newKeySet();

    RequestForwarder(Vertx vertx) {
        this(vertx, null);
    }

    /**
     * replicaTrustOrNull: forwards to other replicas over mutual TLS, presenting this replica's
     * certificate and trusting only servers whose certificate the replica CA signed (a member that
     * publishes itself as leader without one gets no request).
     */
    RequestForwarder(Vertx vertx, ReplicaTrust replicaTrustOrNull) {
        // A leader killed with its host (a container, a pod) does not refuse connections, it stops answering:
        // without this, a request forwarded to it waited for Vert.x's default 60 s connect timeout (drill 5).
        HttpClientOptions options = new HttpClientOptions().setConnectTimeout((int) CONNECT_TIMEOUT.toMillis());
        if (replicaTrustOrNull != null) {
            options.setTrustOptions(new PemTrustOptions().addCertPath(replicaTrustOrNull.caFile().toString()))
                    .setKeyCertOptions(new PemKeyCertOptions().setCertPath(replicaTrustOrNull.certificateFile().toString())
                            .setKeyPath(replicaTrustOrNull.keyFile().toString()))
                    .setVerifyHost(true);
        }
        this.client = vertx.createHttpClient(options, new PoolOptions().setHttp1MaxSize(32));
    }

    /** The request must be paused (or ended) when this is called, so no body bytes are lost. */
    Future<Void> forward(HttpServerRequest in, String baseUrl, Map<String, String> extraHeaders) {
        return forward(in, baseUrl, extraHeaders, null);
    }

    /**
     * As above. The caller's X-Remote-* headers are never passed on. With identityOrNull (the
     * authenticated caller as X-Remote-* headers), the caller's credentials (Authorization,
     * Impersonate-*, cookies) are dropped too and the identity is sent instead.
     */
    Future<Void> forward(HttpServerRequest in, String baseUrl, Map<String, String> extraHeaders, MultiMap identityOrNull) {
        HttpServerResponse out = in.response();
        RequestOptions options = new RequestOptions().setAbsoluteURI(baseUrl + in.uri()).setMethod(in.method());
        return client.request(options)
                .compose(request -> {
                    copy(in.headers(), request.headers(), identityOrNull != null);
                    if (identityOrNull != null) request.headers().addAll(identityOrNull);
                    extraHeaders.forEach(request::putHeader);
                    String length = in.getHeader("content-length");
                    if (length != null) request.putHeader("content-length", length);
                    else if (!in.isEnded()) request.setChunked(true);
                    return in.isEnded() ? request.send() : request.send(in);
                })
                .compose(response -> relay(response, out, isWatch(in)))
                .recover(failure -> {
                    if (!out.headWritten()) unavailable(out, "the leader at " + baseUrl + " is unreachable: " + failure.getMessage());
                    else out.reset();
                    return Future.succeededFuture();
                });
    }

    /**
     * Ends every stream being forwarded (a shutdown) between two of its events, as the leader ends its own watches;
     * client-go re-watches through the Service. A plain request in flight is left to finish.
     */
    void endStreams() {
        for (StreamRelay stream : List.copyOf(streams)) stream.endBetweenEvents();
    }

    /** ?watch=true or ?watch=1, as kube-apiserver reads it. */
    static boolean isWatch(HttpServerRequest in) {
        String watch = in.getParam("watch");
        return "true".equals(watch) || "1".equals(watch);
    }

    private Future<Void> relay(HttpClientResponse response, HttpServerResponse out, boolean watch) {
        out.setStatusCode(response.statusCode());
        out.setStatusMessage(response.statusMessage());
        copy(response.headers(), out.headers(), false);
        String length = response.getHeader("content-length");
        if (length != null) out.putHeader("content-length", length);
        else out.setChunked(true);
        String type = response.getHeader("content-type");
        boolean events = type != null && type.startsWith("text/event-stream");
        if (length != null || !(watch || events)) return response.pipeTo(out);
        StreamRelay stream = StreamRelay.start(response, out, events ? FrameBoundary.serverSentEvents() : FrameBoundary.watchEvents());
        streams.add(stream);
        return stream.done().onComplete(done -> streams.remove(stream));
    }

    private static void copy(MultiMap from, MultiMap to, boolean dropCredentials) {
        for (Map.Entry<String, String> header : from) {
            String name = header.getKey().toLowerCase(java.util.Locale.ROOT);
            if (HOP_BY_HOP.contains(name) || FrontProxyIdentity.isIdentityHeader(name)) continue;
            if (dropCredentials && (CREDENTIALS.contains(name) || name.startsWith("impersonate-"))) continue;
            to.add(header.getKey(), header.getValue());
        }
    }

    /** A metav1 Status 503 that tells the client to retry: no leader is known or reachable now. */
    static void unavailable(HttpServerResponse out, String message) {
        JsonObject status = new JsonObject().put("kind", "Status").put("apiVersion", "v1").put("metadata", new JsonObject())
                .put("status", "Failure").put("message", message).put("reason", "ServiceUnavailable").put("code", 503);
        out.setStatusCode(503).putHeader("content-type", "application/json").putHeader("Retry-After", "1").end(status.encode());
    }

    @Override
    public void close() {
        client.close();
    }
}
