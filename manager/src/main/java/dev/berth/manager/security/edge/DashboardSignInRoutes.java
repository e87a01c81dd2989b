package dev.berth.manager.security.edge;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.api.ApiException;
import dev.berth.manager.api.StatusBody;
import dev.berth.manager.dashboard.DashboardRoutes;
import dev.berth.manager.security.DashboardSessions;
import io.vertx.core.http.Cookie;
import io.vertx.core.http.CookieSameSite;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.util.List;
import java.util.Optional;

/**
 * The dashboard's sign-in by one-time link, so no one pastes a token into a page.
 * <ul>
 * <li>{@code POST /dashboard/sign-in-links} (bearer token, as {@code kubectl berth dashboard} sends it
 * through the kubeconfig) mints a code standing for that token and answers the link's path and expiry.
 * <li>{@code GET /dashboard/sign-in?code=...} (open) spends the code: a session cookie
 * ({@code __Host-} prefixed, HttpOnly, Secure, SameSite=Strict, Path=/) and a 303 to the clean
 * {@code /dashboard/}, so the code leaves the address bar; a used, expired or unknown code gets a 401
 * page saying how to get a fresh link.
 * </ul>
 * The cookie is honoured on reads only (GET and HEAD, see {@link ApiSecurity}): every write still
 * needs the bearer token, so the cookie opens no cross-site request forgery. Neither the code nor the
 * session id is logged; only digests of them are kept ({@link DashboardSessions}).
 */
public final class DashboardSignInRoutes {
    public static final String LINKS = dev.berth.manager.security.RbacPolicy.DASHBOARD_SIGN_IN_LINKS;
    public static final String SIGN_IN = DashboardRoutes.PATH + "sign-in";
    public static final String COOKIE = "__Host-berth-dashboard";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int BODY_LIMIT_BYTES = 4096;

    private final ApiSecurity security;

    public DashboardSignInRoutes(ApiSecurity security) {
        this.security = security;
    }

    /** Mount before {@link DashboardRoutes#register}, whose asset route would otherwise answer these paths. */
    public void mount(Router router) {
        router.post(LINKS).handler(BodyHandler.create(false).setBodyLimit(BODY_LIMIT_BYTES)).handler(this::mint);
        router.get(SIGN_IN).handler(this::signIn);
    }

    private void mint(RoutingContext ctx) {
        ctx.response().putHeader("cache-control", "no-store");
        if (!security.enabled()) {
            refuse(ctx, new ApiException(404, "NotFound", "the dashboard needs no sign-in: this manager runs without authentication",
                    null, null, null, List.of()));
            return;
        }
        Optional<String> token = ApiSecurity.bearer(ctx.request().getHeader("Authorization"));
        if (token.isEmpty()) {
            refuse(ctx, new ApiException(400, "BadRequest",
                    "a sign-in link stands for the caller's bearer token: send the request with the header Authorization: Bearer <token>",
                    null, null, null, List.of()));
            return;
        }
        DashboardSessions.Code code = security.dashboardSessions().mint(token.get());
        ObjectNode body = JSON.createObjectNode()
                .put("kind", "DashboardSignInLink")
                .put("path", SIGN_IN + "?code=" + code.value())
                .put("expiresAt", code.expires().toString());
        ctx.response().setStatusCode(201).putHeader("content-type", "application/json").end(body.toString());
    }

    private void signIn(RoutingContext ctx) {
        ctx.response().putHeader("cache-control", "no-store").putHeader("referrer-policy", "no-referrer");
        if (!security.enabled()) {
            ctx.response().setStatusCode(303).putHeader("location", DashboardRoutes.PATH).end();
            return;
        }
        Optional<DashboardSessions.Session> session = security.dashboardSessions().redeem(ctx.request().getParam("code"));
        if (session.isEmpty()) {
            ctx.response().setStatusCode(401).putHeader("content-type", "text/html; charset=utf-8")
                    .putHeader("content-security-policy", "default-src 'none'")
                    .end(REFUSED_PAGE);
            return;
        }
        ctx.response().addCookie(Cookie.cookie(COOKIE, session.get().id()).setPath("/").setSecure(true).setHttpOnly(true)
                .setSameSite(CookieSameSite.STRICT).setMaxAge(session.get().lifetime().toSeconds()));
        ctx.response().setStatusCode(303).putHeader("location", DashboardRoutes.PATH).end();
    }

    private static void refuse(RoutingContext ctx, ApiException refusal) {
        ctx.response().setStatusCode(refusal.code()).putHeader("content-type", "application/json").end(StatusBody.of(refusal).toString());
    }

    private static final String REFUSED_PAGE = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>Berth dashboard: sign-in link not valid</title></head>
            <body>
            <h1 id="sign-in-refused">This sign-in link cannot be used</h1>
            <p>A sign-in link works once, for 10 minutes. This one was already used, has expired, or was never issued.</p>
            <p>Get a fresh link with <code>kubectl berth dashboard</code> (or <code>bin/berth dashboard-link</code>)
            and open it.</p>
            </body></html>
            """;
}
