package dev.berth.manager.security.edge;

import dev.berth.manager.security.UserInfo;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpServerRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

/**
 * The identity a front proxy asserts, as kube-apiserver's requestheader authentication:
 * {@code X-Remote-User}, {@code X-Remote-Group} (one header per group) and {@code X-Remote-Uid}.
 *
 * <p>In replica mode the follower authenticates the caller, and the leader's replica listener
 * accepts these headers only over mutual TLS from a replica certificate. The listener passes them to
 * its own manager on loopback with a random per-process secret ({@value #SECRET_HEADER}); that
 * manager's guard trusts the headers only with that secret, and ignores them otherwise, so a caller
 * on the public port cannot assert an identity. Every forward strips these headers before adding
 * its own.
 */
public final class FrontProxyIdentity {
    public static final String USER_HEADER = "X-Remote-User";
    public static final String GROUP_HEADER = "X-Remote-Group";
    public static final String UID_HEADER = "X-Remote-Uid";
    public static final String SECRET_HEADER = "X-Berth-Front-Proxy-Secret";
    /** Trusts no front proxy: X-Remote-* headers are ignored. */
    public static final FrontProxyIdentity NONE = new FrontProxyIdentity(null);

    private final String secret;

    private FrontProxyIdentity(String secret) {
        this.secret = secret;
    }

    /** Trusts headers sent with a fresh random secret, which only this process knows. */
    public static FrontProxyIdentity withRandomSecret() {
        byte[] bytes = new byte[32];
        new SecureRandom().nextBytes(bytes);
        return new FrontProxyIdentity(HexFormat.of().formatHex(bytes));
    }

    /**
     * The user a trusted front proxy asserts, or null when the request carries no such identity or
     * does not come from the trusted proxy (its X-Remote-* headers then count for nothing).
     */
    public UserInfo user(HttpServerRequest request) {
        String user = request.getHeader(USER_HEADER);
        if (secret == null || user == null || user.isBlank()) return null;
        String presented = request.getHeader(SECRET_HEADER);
        if (presented == null || !MessageDigest.isEqual(presented.getBytes(StandardCharsets.UTF_8), secret.getBytes(StandardCharsets.UTF_8))) {
            return null;
        }
        String uid = request.getHeader(UID_HEADER);
        return new UserInfo(user, uid == null ? "" : uid, request.headers().getAll(GROUP_HEADER));
    }

    /** The headers that assert user through this trust (for the replica listener's loopback hop). */
    public MultiMap headers(String user, String uid, List<String> groups) {
        MultiMap headers = assertion(user, uid, groups);
        headers.add(SECRET_HEADER, secret);
        return headers;
    }

    /** The X-Remote-* headers that assert a user (sent over mutual TLS to the leader's replica listener). */
    public static MultiMap assertion(String user, String uid, List<String> groups) {
        MultiMap headers = MultiMap.caseInsensitiveMultiMap().add(USER_HEADER, user);
        if (uid != null && !uid.isEmpty()) headers.add(UID_HEADER, uid);
        groups.forEach(group -> headers.add(GROUP_HEADER, group));
        return headers;
    }

    /** Headers no forward passes on from its caller: the identity headers and the secret. */
    public static boolean isIdentityHeader(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return lower.startsWith("x-remote-") || lower.equals(SECRET_HEADER.toLowerCase(Locale.ROOT));
    }
}
