package dev.berth.manager.security.edge;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.api.ApiException;
import dev.berth.manager.api.KubernetesProtobuf;
import dev.berth.manager.api.ManifestReader;
import dev.berth.manager.api.StatusBody;
import dev.berth.manager.objects.InvalidObjectException;
import dev.berth.manager.security.AccessReviews;
import dev.berth.manager.security.RbacPolicy;
import dev.berth.manager.security.RbacPolicySource;
import dev.berth.manager.security.UserInfo;
import dev.berth.protocol.AccessReviewApi;
import dev.berth.protocol.RbacApi;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.time.Clock;
import java.util.List;
import java.util.Map;

/**
 * Serves the self reviews (create-only, never stored) behind the {@link ApiSecurity} guard, which has
 * already authenticated the caller, applied impersonation and checked the verb create (every
 * authenticated user has it through system:basic-user). A review of 64 KiB at most is answered on the
 * event loop from the current RBAC snapshot: a bounded walk over the bindings, no state thread.
 */
public final class AccessReviewRoutes {
    public static final int BODY_LIMIT_BYTES = 64 * 1024;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String AUTHORIZATION = "/apis/" + AccessReviewApi.AUTHORIZATION_GROUP + "/" + AccessReviewApi.V1 + "/";
    private static final String AUTHENTICATION = "/apis/" + AccessReviewApi.AUTHENTICATION_GROUP + "/" + AccessReviewApi.V1 + "/";

    private final RbacPolicySource policy;
    private final ApiSecurity security;
    private final Clock clock;

    public AccessReviewRoutes(RbacPolicySource policy, ApiSecurity security, Clock clock) {
        this.policy = policy;
        this.security = security;
        this.clock = clock;
    }

    public void mount(Router router) {
        mount(router, AUTHORIZATION + AccessReviewApi.SELF_SUBJECT_ACCESS_REVIEWS, true,
                (ctx, user, body) -> AccessReviews.accessReview(rbac(), user, body));
        mount(router, AUTHORIZATION + AccessReviewApi.SELF_SUBJECT_RULES_REVIEWS, true,
                (ctx, user, body) -> AccessReviews.rulesReview(rbac(), user, body));
        mount(router, AUTHENTICATION + AccessReviewApi.SELF_SUBJECT_REVIEWS, false,
                (ctx, user, body) -> AccessReviews.selfReview(user, security.callerExtra(ctx), clock.instant()));
    }

    /** One review's answer to the identity the request runs as. */
    private interface Answer {
        ObjectNode apply(RoutingContext ctx, UserInfo user, ObjectNode body);
    }

    /** readsBody: false for a review whose body says nothing (SelfSubjectReview). */
    private void mount(Router router, String path, boolean readsBody, Answer answer) {
        router.post(path).handler(BodyHandler.create(false).setBodyLimit(BODY_LIMIT_BYTES)).handler(ctx -> {
            try {
                send(ctx, 201, answer.apply(ctx, caller(ctx), readsBody ? body(ctx) : JSON.createObjectNode()));
            } catch (ApiException e) {
                send(ctx, e.code(), StatusBody.of(e));
            } catch (InvalidObjectException e) {
                ApiException refusal = ApiException.of(e, null, null);
                send(ctx, refusal.code(), StatusBody.of(refusal));
            }
        }).failureHandler(ctx -> {
            ApiException refusal = ctx.statusCode() == 413 ? ApiException.tooLarge(BODY_LIMIT_BYTES) : ApiException.internal();
            send(ctx, refusal.code(), StatusBody.of(refusal));
        });
        router.route(path).handler(ctx -> {
            ApiException refusal = ApiException.methodNotAllowed(ctx.request().method().name());
            send(ctx, refusal.code(), StatusBody.of(refusal));
        });
    }

    private RbacPolicy rbac() {
        return security.enabled() ? policy.current() : null;
    }

    /** The identity the guard let through; with security off, anonymous (and everything is allowed). */
    private UserInfo caller(RoutingContext ctx) {
        UserInfo user = security.caller(ctx);
        return user != null ? user : new UserInfo(RbacApi.ANONYMOUS_USER, "", List.of(AccessReviewApi.UNAUTHENTICATED_GROUP));
    }

    /** The review posted, as JSON, YAML or (as kubectl sends it) Kubernetes protobuf. */
    private static ObjectNode body(RoutingContext ctx) {
        byte[] bytes = ctx.body() == null || ctx.body().buffer() == null ? new byte[0] : ctx.body().buffer().getBytes();
        if (bytes.length == 0) return JSON.createObjectNode();
        String contentType = ctx.request().getHeader("content-type");
        if (KubernetesProtobuf.isProtobuf(contentType)) return KubernetesProtobuf.decodeReview(bytes);
        List<ObjectNode> documents = ManifestReader.read(bytes, contentType);
        if (documents.size() != 1) throw ApiException.badRequest("a review is exactly one object");
        return documents.get(0);
    }

    private static void send(RoutingContext ctx, int code, ObjectNode body) {
        if (ctx.response().ended()) return;
        ctx.response().setStatusCode(code).putHeader("content-type", "application/json").end(body.toString());
    }
}
