package dev.berth.manager.security.edge;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.api.ApiException;
import dev.berth.manager.api.RequestGuard;
import dev.berth.manager.api.ResourcePath;
import dev.berth.manager.api.StatusBody;
import dev.berth.manager.security.AuditRecord;
import dev.berth.manager.security.CanonicalPath;
import dev.berth.manager.security.Authenticator;
import dev.berth.manager.security.BarePriority;
import dev.berth.manager.security.DashboardSessions;
import dev.berth.manager.security.EdgeLimits;
import dev.berth.manager.security.Impersonation;
import dev.berth.manager.security.ObjectLimits;
import dev.berth.manager.security.PriorityUse;
import dev.berth.manager.security.RbacPolicy;
import dev.berth.manager.security.RbacPolicySource;
import dev.berth.manager.security.RequestAttributes;
import dev.berth.manager.security.UserInfo;
import dev.berth.protocol.KueueApi;
import dev.berth.protocol.RbacApi;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.Cookie;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.SocketAddress;
import io.vertx.ext.web.RoutingContext;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The Vert.x edge of API security. {@link #guard} runs first on every request: refuse a path that is
 * not canonical (400), authenticate the bearer token (401), rate-limit the user (429 with Retry-After)
 * or, unauthenticated, the source address, act as the identity the Impersonate-* headers name if RBAC
 * lets the caller ({@link Impersonation}: 400/403), authorize with RBAC (403), and audit the answer with
 * both identities, all on the one path the router matches and the handlers answer on
 * ({@link RoutedPath}). {@link #checkWrite} runs on the state thread once a write's body is parsed:
 * object limits (413/422) and the priority classes the caller may use (403). Tokens are never logged.
 */
public final class ApiSecurity implements RequestGuard {
    public static final String USER_KEY = "berth.user";
    private static final String EXTRA_KEY = "berth.user.extra";
    private static final String DRY_RUN_KEY = "berth.dryRun";

    private final Authenticator authenticator;
    private final RbacPolicySource policy;
    private final UserRateLimits rateLimits;
    private final AuditLog audit;
    private final Clock clock;
    private final FrontProxyIdentity frontProxy;
    private final EdgeLimits edge;
    private final AddressRateLimits anonymousLimits;
    private final DashboardSessions dashboardSessions;

    /** Authentication, authorization, rate limits and audit; null authenticator means limits only. */
    public ApiSecurity(Authenticator authenticator, RbacPolicySource policy, UserRateLimits rateLimits, AuditLog audit, Clock clock) {
        this(authenticator, policy, rateLimits, audit, clock, EdgeLimits.DEFAULTS);
    }

    /** As above, with what an anonymous or slow client may hold at the edge. */
    public ApiSecurity(Authenticator authenticator, RbacPolicySource policy, UserRateLimits rateLimits, AuditLog audit, Clock clock,
                       EdgeLimits edge) {
        this(authenticator, policy, rateLimits, audit, clock, edge, FrontProxyIdentity.NONE);
    }

    private ApiSecurity(Authenticator authenticator, RbacPolicySource policy, UserRateLimits rateLimits, AuditLog audit, Clock clock,
                        EdgeLimits edge, FrontProxyIdentity frontProxy) {
        this.edge = edge;
        this.anonymousLimits = new AddressRateLimits(edge.anonymousRate());
        this.authenticator = authenticator;
        this.policy = policy;
        this.rateLimits = rateLimits;
        this.audit = audit;
        this.clock = clock;
        this.frontProxy = frontProxy;
        this.dashboardSessions = new DashboardSessions(clock);
    }

    /** The same guard, also taking the caller's identity from the front proxy it trusts (a leading replica's manager). */
    public ApiSecurity withFrontProxy(FrontProxyIdentity trusted) {
        return new ApiSecurity(authenticator, policy, rateLimits, audit, clock, edge, trusted);
    }

    /** No authentication or authorization: only the object limits. */
    public static ApiSecurity limitsOnly() {
        return new ApiSecurity(null, null, null, null, Clock.systemUTC());
    }

    public boolean enabled() {
        return authenticator != null;
    }

    /** The dashboard's one-time sign-in codes and the sessions they opened ({@link DashboardSignInRoutes}). */
    public DashboardSessions dashboardSessions() {
        return dashboardSessions;
    }

    /** Stream caps and connection timeouts ({@link EdgeLimits#DEFAULTS} when security is off). */
    public EdgeLimits edge() {
        return edge;
    }

    @Override
    public void guard(RoutingContext ctx) {
        guard(ctx, true);
    }

    /**
     * As {@link #guard}, but an admitted request is left paused for the next handler to resume or
     * to stream on (a replica front that forwards the body to the leader). With security off, the
     * request is passed on untouched.
     */
    public void guardPaused(RoutingContext ctx) {
        guard(ctx, false);
    }

    /**
     * Decides on the canonical path ({@link RoutedPath}), the one the router matches and the handlers
     * answer on; a path not in canonical form is refused (400) before anything else. Only the exact
     * open paths pass without a token, and those (health probes and /version aside) count against the
     * caller's address, as every refusal of an unauthenticated request does.
     */
    private void guard(RoutingContext ctx, boolean resume) {
        HttpServerRequest request = ctx.request();
        String path;
        String malformed;
        try {
            path = RoutedPath.resolve(ctx);
            malformed = queryProblem(request);
        } catch (IllegalArgumentException notCanonical) {
            path = null;
            malformed = notCanonical.getMessage();
        }
        if (malformed != null) {
            refuseAnonymous(ctx, RequestAttributes.of(request.method().name(),
                    CanonicalPath.truncated(String.valueOf(request.path())), false),
                    new ApiException(400, "BadRequest", malformed, null, null, null, List.of()));
            return;
        }
        if (!enabled()) {
            ctx.next();
            return;
        }
        if (RoutedPath.isOpen(path)) {
            if (RoutedPath.isUnmetered(path) || withinAnonymousRate(ctx)) ctx.next();
            return;
        }
        RequestAttributes attributes = RequestAttributes.of(request.method().name(), path,
                "true".equals(request.getParam("watch")) || "1".equals(request.getParam("watch")));
        Optional<String> token = bearer(request.getHeader("Authorization")).or(() -> dashboardSession(request));
        request.pause();
        UserInfo proxied = frontProxy.user(request);
        if (proxied != null) {
            authorized(ctx, proxied, attributes, resume);
            return;
        }
        if (token.isEmpty()) {
            refuseAnonymous(ctx, attributes, new ApiException(401, "Unauthorized", "Unauthorized", null, null, null, List.of()));
            return;
        }
        ctx.vertx().executeBlocking(() -> authenticator.authenticate(token.get()), false).onComplete(result -> {
            if (result.failed() || result.result().isEmpty()) {
                refuseAnonymous(ctx, attributes, new ApiException(401, "Unauthorized", "Unauthorized", null, null, null, List.of()));
            } else {
                authorized(ctx, result.result().get(), attributes, resume);
            }
        });
    }

    /** A refusal of a caller not authenticated: audited, unless its address is over the anonymous rate (429, not audited). */
    private void refuseAnonymous(RoutingContext ctx, RequestAttributes attributes, ApiException refusal) {
        if (!enabled()) {
            ctx.response().setStatusCode(refusal.code()).putHeader("content-type", "application/json").end(StatusBody.of(refusal).toString());
        } else if (withinAnonymousRate(ctx)) {
            refuse(ctx, anonymous(), attributes, refusal);
        }
    }

    /** False, having answered 429 with Retry-After, when the caller's address is over the anonymous rate. */
    private boolean withinAnonymousRate(RoutingContext ctx) {
        SocketAddress remote = ctx.request().remoteAddress();
        String address = remote == null || remote.hostAddress() == null ? "unknown" : remote.hostAddress();
        OptionalLong wait = anonymousLimits.acquire(address);
        if (wait.isEmpty()) return true;
        ApiException tooMany = new ApiException(429, "TooManyRequests",
                "Too many requests, please try again later: the limit for unauthenticated requests from one address is exceeded",
                null, null, null, List.of());
        ctx.response().setStatusCode(429).putHeader("Retry-After", Long.toString(wait.getAsLong()))
                .putHeader("content-type", "application/json").end(StatusBody.of(tooMany).toString());
        return false;
    }

    private void authorized(RoutingContext ctx, UserInfo user, RequestAttributes attributes, boolean resume) {
        OptionalLong wait = rateLimits.acquire(user);
        if (wait.isPresent()) {
            ctx.response().putHeader("Retry-After", Long.toString(wait.getAsLong()));
            refuse(ctx, user, attributes, new ApiException(429, "TooManyRequests",
                    "Too many requests, please try again later: the limit for user \"" + user.name() + "\" is exceeded",
                    null, null, null, List.of()));
            return;
        }
        Impersonation.Identity identity = impersonated(ctx, user, attributes);
        if (identity == null) return;
        UserInfo acting = identity.effective();
        UserInfo impersonated = identity.impersonated() ? acting : null;
        if (!policy.current().allows(acting, attributes)) {
            refuse(ctx, user, impersonated, attributes, new ApiException(403, "Forbidden", RbacPolicy.forbiddenMessage(acting, attributes),
                    attributes.name().isEmpty() ? null : attributes.name(), attributes.resourceRequest() ? attributes.apiGroup() : null,
                    attributes.resourceRequest() ? attributes.resource() : null, List.of()));
            return;
        }
        ctx.put(USER_KEY, acting);
        ctx.put(EXTRA_KEY, identity.extra());
        boolean dryRun = dryRun(ctx);
        // Recorded as the answer's head goes out, so a client never holds an answer the audit log lacks;
        // and at the end, for a request whose answer never started (the connection closed first).
        AtomicBoolean recorded = new AtomicBoolean();
        Runnable recordOnce = () -> {
            if (recorded.compareAndSet(false, true)) {
                record(user, impersonated, attributes, ctx.response().getStatusCode(), dryRun || Boolean.TRUE.equals(ctx.get(DRY_RUN_KEY)));
            }
        };
        ctx.addHeadersEndHandler(headers -> recordOnce.run());
        ctx.addEndHandler(done -> recordOnce.run());
        ctx.next();
        if (resume) ctx.request().resume();
    }

    /** Who the request runs as (Impersonate-* headers), or null once refused (400 or 403, audited). */
    private Impersonation.Identity impersonated(RoutingContext ctx, UserInfo user, RequestAttributes attributes) {
        try {
            return Impersonation.actAs(policy.current(), user, ImpersonationHeaders.read(ctx.request().headers()));
        } catch (ApiException refusal) {
            refuse(ctx, user, attributes, refusal);
            return null;
        }
    }

    /** The extra attributes of the identity the request runs as (empty unless impersonated with Impersonate-Extra-*). */
    public Map<String, List<String>> callerExtra(RoutingContext ctx) {
        Map<String, List<String>> extra = ctx.get(EXTRA_KEY);
        return extra == null ? Map.of() : extra;
    }


    /** Serves requests on server, closing connections slow to send a request head or idle too long ({@link ConnectionTimeouts}). */
    @Override
    public HttpServer serve(Vertx vertx, HttpServer server, Handler<HttpServerRequest> requests) {
        return new ConnectionTimeouts(vertx, edge.headerReadTimeout(), edge.idleTimeout()).install(server, requests);
    }

    /** Who holds a long-lived stream: the authenticated user, or the source address when security is off. */
    public String streamOwner(RoutingContext ctx) {
        UserInfo user = caller(ctx);
        if (user != null) return "user:" + user.name();
        SocketAddress remote = ctx.request().remoteAddress();
        return "address:" + (remote == null ? "unknown" : remote.hostAddress());
    }

    /** The request turned out to be a dry run (a DeleteOptions body said so), which the query did not show: audited as one. */
    @Override
    public void markDryRun(RoutingContext ctx) {
        ctx.put(DRY_RUN_KEY, Boolean.TRUE);
    }

    @Override
    public String routedPath(RoutingContext ctx) {
        return RoutedPath.of(ctx);
    }

    @Override
    public WriteCheck writeCheck(RoutingContext ctx) {
        UserInfo caller = caller(ctx);
        return (path, object, encodedBytes) -> checkWrite(caller, path, object, encodedBytes);
    }

    /** The caller the guard authenticated (the impersonated identity, if any), or null when security is off. */
    public UserInfo caller(RoutingContext ctx) {
        return ctx.get(USER_KEY);
    }

    /**
     * On the state thread, after the route is resolved and before the write: object limits, then
     * whether the caller may use the priority classes the object names.
     */
    public void checkWrite(UserInfo caller, ResourcePath path, ObjectNode object, int encodedBytes) {
        boolean namespace = path.type().group().isEmpty() && path.type().kind().equals(KueueApi.NAMESPACE);
        ObjectLimits.check(object, path.type().kind(), namespace, encodedBytes);
        if (caller != null && enabled() && path.type().namespaced()) {
            PriorityUse.check(policy.current(), caller, path.namespace() == null ? "" : path.namespace(), object);
            BarePriority.check(policy.current(), caller, path.namespace() == null ? "" : path.namespace(), path.type().kind(), object);
        }
    }

    /** Every refusal at the gate is audited, reads included. */
    private void refuse(RoutingContext ctx, UserInfo user, RequestAttributes attributes, ApiException refusal) {
        refuse(ctx, user, null, attributes, refusal);
    }

    private void refuse(RoutingContext ctx, UserInfo user, UserInfo impersonated, RequestAttributes attributes, ApiException refusal) {
        recordAlways(user, impersonated, attributes, refusal.code(), dryRun(ctx));
        ctx.response().setStatusCode(refusal.code()).putHeader("content-type", "application/json")
                .end(StatusBody.of(refusal).toString());
    }

    private void record(UserInfo user, UserInfo impersonated, RequestAttributes attributes, int code, boolean dryRun) {
        if (AuditRecord.worthRecording(attributes.verb(), code)) recordAlways(user, impersonated, attributes, code, dryRun);
    }

    private void recordAlways(UserInfo user, UserInfo impersonated, RequestAttributes attributes, int code, boolean dryRun) {
        if (audit == null) return;
        audit.record(new AuditRecord(clock.instant(), user.name(), user.groups(), attributes.verb(), attributes.apiGroup(),
                attributes.resourceRequest() ? attributes.resourceWithSubresource() : attributes.path(),
                attributes.namespace(), attributes.name(), code, dryRun, impersonated));
    }

    /** Null when the query string decodes; otherwise what is wrong with it (answered 400, never 500 later). */
    private static String queryProblem(HttpServerRequest request) {
        try {
            request.params();
            return null;
        } catch (IllegalArgumentException e) {
            return "the request query is not valid: " + CanonicalPath.truncated(e.getMessage());
        }
    }

    /** Whether the query asks for a dry run; false when the query cannot be decoded (refused with 400 by the guard). */
    private static boolean dryRun(RoutingContext ctx) {
        try {
            return ctx.request().params().contains("dryRun");
        } catch (IllegalArgumentException malformedQuery) {
            return false;
        }
    }

    private static UserInfo anonymous() {
        return new UserInfo(RbacApi.ANONYMOUS_USER, "", List.of());
    }

    /**
     * The bearer token a dashboard session cookie stands for, on reads only (GET, HEAD): a write
     * always needs the Authorization header, which a page on another site cannot make a browser send,
     * so the cookie opens no cross-site request forgery.
     */
    private Optional<String> dashboardSession(HttpServerRequest request) {
        if (request.method() != HttpMethod.GET && request.method() != HttpMethod.HEAD) return Optional.empty();
        Cookie cookie = request.getCookie(DashboardSignInRoutes.COOKIE);
        return cookie == null ? Optional.empty() : dashboardSessions.bearerToken(cookie.getValue());
    }

    static Optional<String> bearer(String header) {
        if (header == null || header.length() < 8 || !header.regionMatches(true, 0, "Bearer ", 0, 7)) return Optional.empty();
        String token = header.substring(7).strip();
        return token.isEmpty() ? Optional.empty() : Optional.of(token);
    }
}
