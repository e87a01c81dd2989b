package dev.berth.manager.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.security.RawHttps.Answer;
import dev.berth.manager.security.SecureManager.Reply;
import dev.berth.manager.security.edge.RoutedPath;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Route;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Class 1 of issue 12: the guard decides on the path the router matches. Every route the manager's
 * router holds (read from the router, so a new route is covered without touching this test) is
 * requested without a token under every variant a hostile client can write on the request line
 * (sent as-is over a raw TLS socket): a variant that is not canonical is refused with 400, every
 * other one with 401 unless it is exactly one of the open static paths, and each refusal is audited.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PathNormalisationTest {
    static final String KUEUE = "/apis/kueue.x-k8s.io/v1beta2";
    @TempDir
    static Path dir;
    SecureManager api;
    RawHttps raw;
    String workload;

    @BeforeAll
    void start() throws Exception {
        api = new SecureManager(dir, SecurityOptions.DEFAULT_TENANT_RATE, Optional.empty(),
                EdgeLimits.DEFAULTS.withAnonymousRate(new SecurityOptions.RateLimit(100_000, 100_000)));
        raw = new RawHttps(dir.resolve("tls.crt"), api.manager.port());
        Reply job = api.send("POST", "/apis/batch/v1/namespaces/team-b/jobs", SecureManager.BOB, "application/yaml",
                TenantAuthorizationTest.job("secret-project-x", ""));
        assertThat(job.code()).as(job.body().toString()).isEqualTo(201);
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30))
                .until(() -> api.get(KUEUE + "/namespaces/team-b/workloads", SecureManager.ADMIN).body().path("items").size() > 0);
        workload = api.get(KUEUE + "/namespaces/team-b/workloads", SecureManager.ADMIN).body().path("items").get(0)
                .path("metadata").path("name").asText();
    }

    @AfterAll
    void stop() throws Exception {
        api.close();
    }

    /** One request: a method and a request target exactly as written on the request line. */
    record Probe(String route, String variant, String method, String target, boolean malformed, String canonical) {
        @Override
        public String toString() {
            return method + " " + target + " (" + variant + " of " + route + ")";
        }
    }

    Stream<Probe> everyRouteUnderEveryVariant() {
        List<Route> routes = api.manager.routes();
        assertThat(routes).as("the router's routes").hasSizeGreaterThan(10);
        List<Probe> probes = new ArrayList<>();
        for (Route route : routes) {
            String path = concrete(route);
            if (path == null) continue;
            List<String> methods = route.methods() == null || route.methods().isEmpty() ? List.of("GET", "POST", "DELETE")
                    : route.methods().stream().map(HttpMethod::name).toList();
            for (String method : methods) {
                for (Probe probe : variants(route.getName(), method, path)) probes.add(probe);
            }
        }
        probes.addAll(variants("(no route)", "GET", "/nowhere"));
        return probes.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everyRouteUnderEveryVariant")
    void withoutATokenOnlyTheExactOpenPathsAreServed(Probe probe) throws Exception {
        int auditBefore = api.auditLines().size();
        Answer answer = raw.send(probe.method(), probe.target());
        if (probe.malformed()) {
            assertThat(answer.code()).as(answer.head()).isEqualTo(400);
            assertThat(answer.body()).containsAnyOf("not canonical", "query is not valid");
        } else if (RoutedPath.openPaths().contains(probe.canonical())) {
            assertThat(answer.code()).as(answer.head()).isBetween(200, 499);
            return;
        } else {
            assertThat(answer.code()).as(answer.head() + "\n" + answer.body()).isEqualTo(401);
        }
        List<String> audit = api.auditLines();
        assertThat(audit).as("one audit line for the refusal").hasSize(auditBefore + 1);
        assertThat(audit.get(audit.size() - 1)).contains("\"code\":" + answer.code()).contains("system:anonymous");
    }

    @Test
    void aTenantCannotStepIntoAnotherNamespaceWithDotSegmentsOrEscapes() throws Exception {
        for (String target : List.of(
                "/apis/batch/v1/namespaces/team-a/../team-b/jobs",
                "/apis/batch/v1/namespaces/team-a/%2e%2e/team-b/jobs",
                "/apis/batch/v1/namespaces/team-a/jobs/..%2F..%2Fteam-b%2Fjobs",
                "/dashboard/../apis/batch/v1/namespaces/team-b/jobs",
                "/apis/batch/v1/namespaces/team-a//../team-b/jobs")) {
            Answer answer = raw.send("GET", target, "Authorization: Bearer " + SecureManager.ALICE);
            assertThat(answer.code()).as(target + "\n" + answer.head()).isEqualTo(400);
            assertThat(answer.body()).doesNotContain("secret-project-x");
        }
        Answer own = raw.send("GET", "/apis/batch/v1/namespaces/team-%61/jobs", "Authorization: Bearer " + SecureManager.ALICE);
        assertThat(own.code()).as("an escaped letter names the same path, which RBAC and the handler both see").isEqualTo(200);
        Answer other = raw.send("GET", "/apis/batch/v1/namespaces/team-%62/jobs", "Authorization: Bearer " + SecureManager.ALICE);
        assertThat(other.code()).isEqualTo(403);
    }

    @Test
    void theRefusalOfALongPathWritesABoundedAuditLine() throws Exception {
        String longName = "x".repeat(1800);
        Answer answer = raw.send("GET", KUEUE + "/namespaces/" + longName + "/workloads/" + longName);
        assertThat(answer.code()).isEqualTo(401);
        List<String> audit = api.auditLines();
        String line = audit.get(audit.size() - 1);
        assertThat(line).contains("\"code\":401");
        assertThat(line.length()).as(line).isLessThan(2 * CanonicalPath.MAX_ECHO + 600);
    }

    /** A request path the route matches, or null for a route without a path (the guard, the 404 fallback). */
    String concrete(Route route) {
        Map<String, String> params = Map.of("ns", "team-b", "name", workload, "cq", "team-b-cq", "lq", "team-b-queue",
                "asset", "app.js");
        if (route.isRegexPath()) {
            String regex = route.getName();
            String path = regex.replace("([^/]+)", "v1").replace("(.+)", "apis/kueue.x-k8s.io/v1beta2").replace(".*", "v2")
                    .replace("/?", "");
            assertThat(Pattern.matches(regex, path)).as(path + " matches " + regex).isTrue();
            return path;
        }
        String path = route.getPath();
        if (path == null) return null;
        Matcher param = Pattern.compile(":([A-Za-z0-9_]+)").matcher(path);
        StringBuilder out = new StringBuilder();
        while (param.find()) param.appendReplacement(out, params.getOrDefault(param.group(1), "x"));
        param.appendTail(out);
        path = out.toString();
        if (!route.isExactPath()) {
            path += path.equals("/api/") ? "v1/namespaces/team-b/pods"
                    : path.equals("/apis/") ? "kueue.x-k8s.io/v1beta2/namespaces/team-b/workloads" : "x";
        }
        return path;
    }

    static List<Probe> variants(String route, String method, String path) {
        List<Probe> probes = new ArrayList<>();
        String rest = path.substring(1);
        probes.add(new Probe(route, "as is", method, path, false, path));
        probes.add(new Probe(route, "trailing slash", method, path + "/", path.endsWith("/"), path + "/"));
        probes.add(new Probe(route, "query string", method, path + "?watch=true&limit=1", false, path));
        probes.add(new Probe(route, "upper case", method, path.toUpperCase(Locale.ROOT), false, path.toUpperCase(Locale.ROOT)));
        int letter = firstLetter(path);
        if (letter >= 0) {
            String escaped = path.substring(0, letter) + "%" + Integer.toHexString(path.charAt(letter)) + path.substring(letter + 1);
            probes.add(new Probe(route, "escaped letter", method, escaped, false, path));
        }
        probes.add(new Probe(route, "dot-dot after the dashboard", method, "/dashboard/.." + path, true, null));
        probes.add(new Probe(route, "dot-dot after a probe", method, "/healthz/../" + rest, true, null));
        probes.add(new Probe(route, "escaped dot-dot", method, "/dashboard/%2e%2e" + path, true, null));
        probes.add(new Probe(route, "upper escaped dot-dot", method, "/dashboard/%2E%2E" + path, true, null));
        probes.add(new Probe(route, "half escaped dot-dot", method, "/dashboard/.%2e" + path, true, null));
        probes.add(new Probe(route, "dot segment", method, "/." + path, true, null));
        probes.add(new Probe(route, "dot-dot at the end", method, path + (path.endsWith("/") ? "" : "/") + "x/..", true, null));
        probes.add(new Probe(route, "doubled leading slash", method, "/" + path, true, null));
        int lastSlash = path.lastIndexOf('/');
        if (lastSlash > 0) {
            probes.add(new Probe(route, "doubled inner slash", method, path.substring(0, lastSlash) + "/" + path.substring(lastSlash), true, null));
            probes.add(new Probe(route, "escaped slash", method, path.substring(0, lastSlash) + "%2F" + path.substring(lastSlash + 1), true, null));
        }
        probes.add(new Probe(route, "escaped slash after the dashboard", method, "/dashboard%2F..%2F" + rest, true, null));
        probes.add(new Probe(route, "backslash", method, "/dashboard\\..\\" + rest, true, null));
        probes.add(new Probe(route, "escaped NUL", method, path + "%00", true, null));
        probes.add(new Probe(route, "malformed query escape", method, path + "?watch=%zz", true, null));
        probes.add(new Probe(route, "escaped backslash", method, "/dashboard%5C..%5C" + rest, true, null));
        return probes;
    }

    private static int firstLetter(String path) {
        for (int i = 0; i < path.length(); i++) if (Character.isLetter(path.charAt(i))) return i;
        return -1;
    }
}
