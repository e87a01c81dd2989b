package dev.berth.manager.ha;

import dev.berth.manager.security.ReplicaTrust;
import dev.berth.manager.security.edge.FrontProxyIdentity;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replica port: where followers forward writes and watches to the leader, over mutual TLS from
 * the replica CA ({@link ReplicaTrust}). A request is taken only from a peer whose certificate the
 * CA signed and whose name is allowed (403 otherwise; the TLS handshake already refuses a peer with
 * no certificate or one from another CA). The identity the follower authenticated arrives as
 * X-Remote-* headers and goes on to this replica's leading manager on loopback with the
 * process-local front-proxy secret ({@link FrontProxyIdentity}); no bearer token ever travels
 * between replicas. A replica that does not lead answers 503 with Retry-After.
 */
final class ReplicaListener {
    private static final Logger log = LoggerFactory.getLogger(ReplicaListener.class);

    private final String replicaId;
    private final Leadership leadership;
    private final RequestForwarder forwarder;
    private final ReplicaTrust trust;
    private final X509Certificate ca;
    private final FrontProxyIdentity loopback;
    private final Clock clock;

    ReplicaListener(String replicaId, Leadership leadership, RequestForwarder forwarder, ReplicaTrust trust,
                    FrontProxyIdentity loopback, Clock clock) {
        this.replicaId = replicaId;
        this.leadership = leadership;
        this.forwarder = forwarder;
        this.trust = trust;
        this.ca = trust.ca();
        this.loopback = loopback;
        this.clock = clock;
    }

    void handle(HttpServerRequest request) {
        request.pause();
        List<X509Certificate> chain = peerChain(request.connection().sslSession());
        if (!trust.admits(chain, ca, clock.instant())) {
            log.atWarn().setMessage("refused a request on the replica port: the peer is not an allowed replica")
                    .addKeyValue("replica", replicaId)
                    .addKeyValue("peer", chain.isEmpty() ? "" : ReplicaTrust.commonName(chain.get(0)))
                    .addKeyValue("remote", String.valueOf(request.remoteAddress())).log();
            forbidden(request, "the client certificate is not an allowed replica certificate");
            return;
        }
        Leadership.Term term = leadership.term();
        if (term == null) {
            RequestForwarder.unavailable(request.response(), "replica " + replicaId + " is not the leader; retry");
            return;
        }
        String user = request.getHeader(FrontProxyIdentity.USER_HEADER);
        MultiMap identity = user == null ? null
                : loopback.headers(user, request.getHeader(FrontProxyIdentity.UID_HEADER), request.headers().getAll(FrontProxyIdentity.GROUP_HEADER));
        forwarder.forward(request, "http://127.0.0.1:" + term.manager().port(), Map.of(), identity);
    }

    private static List<X509Certificate> peerChain(SSLSession session) {
        List<X509Certificate> chain = new ArrayList<>();
        if (session == null) return chain;
        try {
            for (Certificate certificate : session.getPeerCertificates()) {
                if (certificate instanceof X509Certificate x509) chain.add(x509);
            }
        } catch (SSLPeerUnverifiedException none) {
            chain.clear();
        }
        return chain;
    }

    private static void forbidden(HttpServerRequest request, String message) {
        JsonObject status = new JsonObject().put("kind", "Status").put("apiVersion", "v1").put("metadata", new JsonObject())
                .put("status", "Failure").put("message", message).put("reason", "Forbidden").put("code", 403);
        request.response().setStatusCode(403).putHeader("content-type", "application/json").end(status.encode());
    }
}
