package dev.berth.manager.ha;

import dev.berth.manager.security.UserInfo;
import dev.berth.manager.security.edge.ApiSecurity;
import dev.berth.manager.security.edge.FrontProxyIdentity;
import io.vertx.core.MultiMap;
import dev.berth.protocol.ManagerReplicas;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.Map;

/**
 * The public API port of a replica. On the leader, every request goes to its running manager. On a
 * follower, reads are served from the shared store and everything else (writes, and watches, which
 * need the leader's change stream) is forwarded to the leader named in the {@link LeaderDirectory}.
 * A request that was already forwarded once is never forwarded again: a replica that is not (or no
 * longer) the leader answers it 503 with Retry-After, as it does when no leader is known.
 *
 * <p>Security: the replica's own description ({@link ManagerReplicas#REPLICA_PATH}) is guarded here, on
 * leader and followers alike (a non-resource URL: admins, or whoever RBAC grants it). Otherwise, on
 * the leader, its manager guards every request itself. On a follower the same
 * {@link ApiSecurity} guard (authentication, rate limit, RBAC, audit) runs before a read is served or
 * a request is forwarded. The follower then forwards as a front proxy does: to the leader's replica
 * port ({@link ReplicaListener}) over mutual TLS from the replica CA, asserting the caller it
 * authenticated as X-Remote-User/X-Remote-Group and never passing the caller's bearer token on. A
 * member that publishes itself as leader without a replica certificate gets no request: the TLS
 * handshake with it fails and the caller gets 503. X-Remote-* headers sent by a caller are dropped.
 */
final class ReplicaFront {
    private final String replicaId;
    private final Leadership leadership;
    private final RequestForwarder forwarder;
    private final ApiSecurity security;

    ReplicaFront(String replicaId, Leadership leadership, RequestForwarder forwarder, ApiSecurity security) {
        this.security = security;
        this.replicaId = replicaId;
        this.leadership = leadership;
        this.forwarder = forwarder;
    }

    Router router(Vertx vertx, Router followerReads) {
        Router front = Router.router(vertx);
        front.route().handler(ctx -> {
            ctx.response().putHeader(ManagerReplicas.SERVED_BY_HEADER, replicaId);
            ctx.next();
        });
        front.get(ManagerReplicas.REPLICA_PATH).handler(security::guard).handler(this::describe);
        front.route().handler(this::toLeadingManager);
        front.route().handler(security::guardPaused);
        front.route().handler(this::asFollower);
        front.route("/*").subRouter(followerReads);
        return front;
    }

    private void toLeadingManager(RoutingContext ctx) {
        Leadership.Term term = leadership.term();
        if (term == null) {
            ctx.next();
            return;
        }
        ctx.request().pause();
        forwarder.forward(ctx.request(), "http://127.0.0.1:" + term.manager().port(), Map.of());
    }

    /** After the guard; the request may be paused, and is resumed for a read served here. */
    private void asFollower(RoutingContext ctx) {
        HttpServerRequest request = ctx.request();
        if (isPlainRead(request)) {
            ctx.next();
            request.resume();
        } else if (request.getHeader(ManagerReplicas.FORWARDED_BY_HEADER) != null) {
            RequestForwarder.unavailable(ctx.response(), "replica " + replicaId + " is not the leader; retry");
        } else {
            request.pause();
            leadership.directory().leader().onComplete(found -> {
                LeaderRecord leader = found.succeeded() ? found.result().orElse(null) : null;
                if (leader == null || leader.replicaId().equals(replicaId)) {
                    RequestForwarder.unavailable(ctx.response(), "no leader is known to replica " + replicaId + "; retry");
                } else {
                    forwardToLeader(ctx, leader);
                }
            });
        }
    }

    /** With security on, as the caller this replica authenticated (X-Remote-*), and over mutual TLS only. */
    private void forwardToLeader(RoutingContext ctx, LeaderRecord leader) {
        UserInfo caller = security.caller(ctx);
        MultiMap identity = caller == null ? null : FrontProxyIdentity.assertion(caller.name(), caller.uid(), caller.groups());
        if (identity != null && !leader.url().startsWith("https://")) {
            RequestForwarder.unavailable(ctx.response(), "the leader " + leader.replicaId() + " has no replica TLS port; retry");
            return;
        }
        forwarder.forward(ctx.request(), leader.url(), Map.of(ManagerReplicas.FORWARDED_BY_HEADER, replicaId), identity);
    }

    private static boolean isPlainRead(HttpServerRequest request) {
        HttpMethod method = request.method();
        boolean read = method == HttpMethod.GET || method == HttpMethod.HEAD || method == HttpMethod.OPTIONS;
        return read && !RequestForwarder.isWatch(request);
    }

    private void describe(RoutingContext ctx) {
        Leadership.Term term = leadership.term();
        leadership.directory().leader().onComplete(found -> {
            JsonObject body = new JsonObject().put("replicaId", replicaId).put("leader", term != null)
                    .put("epoch", term == null ? null : term.epoch());
            if (found.succeeded() && found.result().isPresent()) body.put("knownLeader", found.result().get().toJson());
            ctx.response().putHeader("content-type", "application/json").end(body.encode());
        });
    }
}
