package dev.berth.manager.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.security.edge.DashboardSignInRoutes;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dashboard's one-time sign-in link over real HTTPS: a bearer token mints a code, the code buys one
 * HttpOnly, Secure, SameSite=Strict session cookie and a redirect to the clean dashboard path, a spent
 * code is refused with 401, and the cookie reads as its token's user but never writes (no CSRF).
 */
class DashboardSignInTest {
    private static final String CAPACITY = "/apis/visibility.berth.dev/v1alpha1/capacity";
    private static final String JOBS = "/apis/batch/v1/namespaces/team-a/jobs";

    @TempDir
    Path dir;
    private SecureManager berth;

    @BeforeEach
    void start() throws Exception {
        berth = new SecureManager(dir, SecurityOptions.DEFAULT_TENANT_RATE, Optional.empty());
    }

    @AfterEach
    void stop() throws Exception {
        berth.close();
    }

    @Test
    void aBearerTokenMintsALinkWhoseCodeBuysOneSessionCookieAndARedirectToTheCleanPage() throws Exception {
        SecureManager.Reply minted = berth.send("POST", DashboardSignInRoutes.LINKS, SecureManager.ADMIN, null, null);
        assertThat(minted.code()).as(minted.body().toString()).isEqualTo(201);
        String path = minted.body().path("path").asText();
        assertThat(path).startsWith("/dashboard/sign-in?code=").doesNotContain(SecureManager.ADMIN);
        assertThat(Instant.parse(minted.body().path("expiresAt").asText()))
                .isBetween(Instant.now().plus(Duration.ofMinutes(9)), Instant.now().plus(Duration.ofMinutes(11)));
        assertThat(minted.headers().firstValue("cache-control")).contains("no-store");

        HttpResponse<String> first = open(path, null);
        assertThat(first.statusCode()).isEqualTo(303);
        assertThat(first.headers().firstValue("location")).contains("/dashboard/");
        assertThat(first.headers().firstValue("referrer-policy")).contains("no-referrer");
        String setCookie = first.headers().firstValue("set-cookie").orElseThrow();
        assertThat(setCookie).startsWith(DashboardSignInRoutes.COOKIE + "=")
                .containsIgnoringCase("HttpOnly").contains("Secure", "SameSite=Strict", "Path=/")
                .doesNotContain(SecureManager.ADMIN, path.substring(path.indexOf('=') + 1), "Domain");
        String cookie = setCookie.substring(0, setCookie.indexOf(';'));

        assertThat(open(CAPACITY, cookie).statusCode()).as("the cookie reads as the admin").isEqualTo(200);
        assertThat(open(CAPACITY, null).statusCode()).isEqualTo(401);

        HttpResponse<String> again = open(path, null);
        assertThat(again.statusCode()).as("a code works once").isEqualTo(401);
        assertThat(again.headers().firstValue("set-cookie")).isEmpty();
        assertThat(again.body()).contains("cannot be used", "kubectl berth dashboard");
    }

    @Test
    void theCookieNeverAuthenticatesAWriteSoNoOtherSiteCanForgeOne() throws Exception {
        String cookie = signIn(SecureManager.ADMIN);
        List<String> before = berth.contents();
        String job = """
                {"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"forged","namespace":"team-a"},
                 "spec":{"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"busybox"}]}}}}""";
        SecureManager.Reply forged = berth.sendBytes("POST", JOBS, null, "application/json", job.getBytes(),
                Map.of("Cookie", List.of(cookie)));
        assertThat(forged.code()).isEqualTo(401);
        SecureManager.Reply deleted = berth.sendBytes("DELETE", "/apis/kueue.x-k8s.io/v1beta2/clusterqueues/team-a-cq", null, null, null,
                Map.of("Cookie", List.of(cookie)));
        assertThat(deleted.code()).isEqualTo(401);
        assertThat(berth.contents()).isEqualTo(before);
        // nor mints a further link: that too is a POST
        assertThat(berth.sendBytes("POST", DashboardSignInRoutes.LINKS, null, null, null, Map.of("Cookie", List.of(cookie))).code())
                .isEqualTo(401);
    }

    @Test
    void aTenantsSessionReadsAsTheTenantAndNoMore() throws Exception {
        String cookie = signIn(SecureManager.ALICE);
        assertThat(open("/apis/kueue.x-k8s.io/v1beta2/namespaces/team-a/localqueues", cookie).statusCode()).isEqualTo(200);
        assertThat(open(CAPACITY, cookie).statusCode()).as("fleet views are the administrator's").isEqualTo(403);
        assertThat(open("/apis/kueue.x-k8s.io/v1beta2/namespaces/team-b/localqueues", cookie).statusCode()).isEqualTo(403);
    }

    @Test
    void noLinkWithoutAValidTokenAndNoSessionFromAMadeUpCode() throws Exception {
        assertThat(berth.send("POST", DashboardSignInRoutes.LINKS, null, null, null).code()).isEqualTo(401);
        assertThat(berth.send("POST", DashboardSignInRoutes.LINKS, "not-a-token", null, null).code()).isEqualTo(401);
        assertThat(open(DashboardSignInRoutes.SIGN_IN + "?code=made-up", null).statusCode()).isEqualTo(401);
        assertThat(open(DashboardSignInRoutes.SIGN_IN, null).statusCode()).isEqualTo(401);
        assertThat(open(CAPACITY, DashboardSignInRoutes.COOKIE + "=made-up").statusCode()).isEqualTo(401);
    }

    @Test
    void neitherTheCodeNorTheSessionNorTheTokenReachesTheAuditLog() throws Exception {
        SecureManager.Reply minted = berth.send("POST", DashboardSignInRoutes.LINKS, SecureManager.ADMIN, null, null);
        String path = minted.body().path("path").asText();
        String setCookie = open(path, null).headers().firstValue("set-cookie").orElseThrow();
        String session = setCookie.substring(setCookie.indexOf('=') + 1, setCookie.indexOf(';'));
        open(CAPACITY, DashboardSignInRoutes.COOKIE + "=" + session);
        open(path, null);
        String audit = String.join("\n", berth.auditLines());
        assertThat(audit).contains(DashboardSignInRoutes.LINKS)
                .doesNotContain(path.substring(path.indexOf('=') + 1), session, SecureManager.ADMIN);
    }

    private String signIn(String token) throws Exception {
        SecureManager.Reply minted = berth.send("POST", DashboardSignInRoutes.LINKS, token, null, null);
        assertThat(minted.code()).as(minted.body().toString()).isEqualTo(201);
        String path = minted.body().path("path").asText();
        String setCookie = open(path, null).headers().firstValue("set-cookie").orElseThrow();
        return setCookie.substring(0, setCookie.indexOf(';'));
    }

    /** A GET as a browser sends it: no Authorization header, the cookie if any; redirects not followed. */
    private HttpResponse<String> open(String path, String cookie) throws Exception {
        return berth.client.sendRaw("GET", path, HttpRequest.BodyPublishers.noBody(), request -> {
            if (cookie != null) request.header("Cookie", cookie);
        }, HttpResponse.BodyHandlers.ofString());
    }
}
