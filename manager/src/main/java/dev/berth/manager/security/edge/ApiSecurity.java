package dev.berth.manager.security.edge;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.api.ApiException;
import dev.berth.manager.api.ResourcePath;
import dev.berth.manager.api.StatusBody;
import dev.berth.manager.security.AuditRecord;
import dev.berth.manager.security.Authenticator;
import dev.berth.manager.security.BarePriority;
import dev.berth.manager.security.Impersonation;
import dev.berth.manager.security.ObjectLimits;
import dev.berth.manager.security.PriorityUse;
import dev.berth.manager.security.RbacPolicy;
import dev.berth.manager.security.RbacPolicySource;
import dev.berth.manager.security.RequestAttributes;
import dev.berth.manager.security.UserInfo;
import dev.berth.protocol.KueueApi;
import dev.berth.protocol.RbacApi;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The Vert.x edge of API security. {@link #guard} runs first on every request: authenticate the
 * bearer token (401), rate-limit the user (429 with Retry-After), act as the identity the Impersonate-*
 * headers name if RBAC lets the caller ({@link Impersonation}: 400/403), authorize with RBAC (403), and
 * audit the answer with both identities. {@link #checkWrite} runs on the state thread once a write's
 * body is parsed: object limits (413/422) and the priority classes the caller may use (403). Tokens are
 * never logged.
 */
public final class ApiSecurity {
    public static final String USER_KEY = "berth.user";
    private static final String EXTRA_KEY = "berth.user.extra";
    private static final Set<String> OPEN_PATHS = Set.of("/healthz", "/readyz", "/livez", "/version");

    private final Authenticator authenticator;
    private final RbacPolicySource policy;
    private final UserRateLimits rateLimits;
    private final AuditLog audit;
    private final Clock clock;
    private final FrontProxyIdentity frontProxy;

    /** Authentication, authorization, rate limits and audit; null authenticator means limits only. */
    public ApiSecurity(Authenticator authenticator, RbacPolicySource policy, UserRateLimits rateLimits, AuditLog audit, Clock clock) {
        this(authenticator, policy, rateLimits, audit, clock, FrontProxyIdentity.NONE);
    }

    private ApiSecurity(Authenticator authenticator, RbacPolicySource policy, UserRateLimits rateLimits, AuditLog audit, Clock clock,
                        FrontProxyIdentity frontProxy) {
        this.authenticator = authenticator;
        this.policy = policy;
        this.rateLimits = rateLimits;
        this.audit = audit;
        this.clock = clock;
        this.frontProxy = frontProxy;
    }

    /** The same guard, also taking the caller's identity from the front proxy it trusts (a leading replica's manager). */
    public ApiSecurity withFrontProxy(FrontProxyIdentity trusted) {
        return new ApiSecurity(authenticator, policy, rateLimits, audit, clock, trusted);
    }

    /** No authentication or authorization: only the object limits. */
    public static ApiSecurity limitsOnly() {
        return new ApiSecurity(null, null, null, null, Clock.systemUTC());
    }

    /**
     * The dashboard's page, style and scripts hold no data, and a browser cannot send a token before it
     * has them; its data (the live stream and the APIs it calls) stays behind authentication.
     */
    static boolean isDashboardPage(String path) {
        return path.equals("/") || path.equals("/dashboard")
                || (path.startsWith("/dashboard/") && !path.equals("/dashboard/stream"));
    }

    public boolean enabled() {
        return authenticator != null;
    }

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

    private void guard(RoutingContext ctx, boolean resume) {
        HttpServerRequest request = ctx.request();
        if (!enabled() || OPEN_PATHS.contains(request.path()) || isDashboardPage(request.path())) {
            ctx.next();
            return;
        }
        RequestAttributes attributes = RequestAttributes.of(request.method().name(), request.path(),
                "true".equals(request.getParam("watch")) || "1".equals(request.getParam("watch")));
        Optional<String> token = bearer(request.getHeader("Authorization"));
        request.pause();
        UserInfo proxied = frontProxy.user(request);
        if (proxied != null) {
            authorized(ctx, proxied, attributes, resume);
            return;
        }
        if (token.isEmpty()) {
            refuse(ctx, anonymous(), attributes, new ApiException(401, "Unauthorized", "Unauthorized", null, null, null, List.of()));
            return;
        }
        ctx.vertx().executeBlocking(() -> authenticator.authenticate(token.get()), false).onComplete(result -> {
            if (result.failed() || result.result().isEmpty()) {
                refuse(ctx, anonymous(), attributes, new ApiException(401, "Unauthorized", "Unauthorized", null, null, null, List.of()));
            } else {
                authorized(ctx, result.result().get(), attributes, resume);
            }
        });
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
        boolean dryRun = ctx.request().params().contains("dryRun");
        ctx.addEndHandler(done -> record(user, impersonated, attributes, ctx.response().getStatusCode(), dryRun));
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

    private void refuse(RoutingContext ctx, UserInfo user, RequestAttributes attributes, ApiException refusal) {
        refuse(ctx, user, null, attributes, refusal);
    }

    private void refuse(RoutingContext ctx, UserInfo user, UserInfo impersonated, RequestAttributes attributes, ApiException refusal) {
        record(user, impersonated, attributes, refusal.code(), ctx.request().params().contains("dryRun"));
        ctx.response().setStatusCode(refusal.code()).putHeader("content-type", "application/json")
                .end(StatusBody.of(refusal).toString());
    }

    private void record(UserInfo user, UserInfo impersonated, RequestAttributes attributes, int code, boolean dryRun) {
        if (audit == null || !AuditRecord.worthRecording(attributes.verb(), code)) return;
        audit.record(new AuditRecord(clock.instant(), user.name(), user.groups(), attributes.verb(), attributes.apiGroup(),
                attributes.resourceRequest() ? attributes.resourceWithSubresource() : attributes.path(),
                attributes.namespace(), attributes.name(), code, dryRun, impersonated));
    }

    private static UserInfo anonymous() {
        return new UserInfo(RbacApi.ANONYMOUS_USER, "", List.of());
    }

    private static Optional<String> bearer(String header) {
        if (header == null || header.length() < 8 || !header.regionMatches(true, 0, "Bearer ", 0, 7)) return Optional.empty();
        String token = header.substring(7).strip();
        return token.isEmpty() ? Optional.empty() : Optional.of(token);
    }
}
