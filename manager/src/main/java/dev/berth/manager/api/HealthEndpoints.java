package dev.berth.manager.api;

import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube-apiserver's health endpoints: {@code /livez}, {@code /readyz} and {@code /healthz} (the deprecated alias),
 * each {@code ok} while every check passes, else 500 listing the checks with a failed one's reason withheld (it is
 * logged instead, once per new reason); {@code ?verbose} lists every check on success too, {@code ?exclude=<check>}
 * skips one, and {@code /livez/<check>} asks one. The checks: {@code ping}, and what the manager adds (the store: a broken journal makes the manager not
 * live, so the orchestrator restarts it and the restart recovers what is on disk; a readiness-only check, as
 * kube-apiserver's {@code etcd-readiness}, fails /readyz alone while PostgreSQL does not answer). Checks may block
 * (a database round trip), so they run on a worker thread, never on the event loop.
 */
public final class HealthEndpoints {
    private static final Logger log = LoggerFactory.getLogger(HealthEndpoints.class);
    private static final List<String> ENDPOINTS = List.of("livez", "readyz", "healthz");

    /** A named check: empty while it passes, else why it failed; a readiness-only check is asked by /readyz alone. */
    public record Check(String name, Supplier<Optional<String>> failure, boolean readinessOnly) {
        public Check(String name, Supplier<Optional<String>> failure) {
            this(name, failure, false);
        }
    }

    private record Report(int status, String body) {}

    private final List<Check> checks = new CopyOnWriteArrayList<>(List.of(new Check("ping", Optional::empty)));
    private final Map<String, String> loggedFailure = new ConcurrentHashMap<>();

    public HealthEndpoints with(Check check) {
        checks.add(check);
        return this;
    }

    void mount(Router router) {
        for (String endpoint : ENDPOINTS) {
            router.get("/" + endpoint).handler(ctx -> answer(ctx, endpoint, checksOf(endpoint)));
            router.get("/" + endpoint + "/:check").handler(ctx -> {
                String name = ctx.pathParam("check");
                List<Check> one = checksOf(endpoint).stream().filter(check -> check.name().equals(name)).toList();
                if (one.isEmpty()) text(ctx, 404, "no such health check: " + name + "\n");
                else answer(ctx, endpoint, one);
            });
        }
    }

    private List<Check> checksOf(String endpoint) {
        return endpoint.equals("readyz") ? List.copyOf(checks) : checks.stream().filter(check -> !check.readinessOnly()).toList();
    }

    private void answer(RoutingContext ctx, String endpoint, List<Check> asked) {
        boolean verbose = ctx.queryParams().get("verbose") != null;
        Set<String> excluded = new LinkedHashSet<>(ctx.queryParams().getAll("exclude"));
        ctx.vertx().executeBlocking(() -> report(endpoint, asked, excluded, verbose), false)
                .onSuccess(report -> text(ctx, report.status(), report.body()))
                .onFailure(e -> text(ctx, 500, endpoint + " check failed\n"));
    }

    /** As kube-apiserver: {@code ?exclude=<check>} skips a check (listed as excluded), and names no check warns. */
    private Report report(String endpoint, List<Check> asked, Set<String> excluded, boolean verbose) {
        StringBuilder body = new StringBuilder();
        boolean passed = true;
        Set<String> unmatched = new LinkedHashSet<>(excluded);
        for (Check check : asked) {
            if (unmatched.remove(check.name())) {
                body.append("[+]").append(check.name()).append(" excluded: ok\n");
                continue;
            }
            Optional<String> failure = failure(check);
            if (failure.isEmpty()) {
                body.append("[+]").append(check.name()).append(" ok\n");
            } else {
                passed = false;
                body.append("[-]").append(check.name()).append(" failed: reason withheld\n");
                if (!failure.get().equals(loggedFailure.put(check.name(), failure.get()))) {
                    log.atError().setMessage("health check failed").addKeyValue("check", check.name())
                            .addKeyValue("reason", failure.get()).log();
                }
            }
        }
        if (passed && !verbose) return new Report(200, "ok");
        if (!unmatched.isEmpty()) {
            body.append("warn: some health checks cannot be excluded: no matches for ")
                    .append(String.join(",", unmatched.stream().map(name -> '"' + name + '"').toList())).append('\n');
        }
        body.append(endpoint).append(passed ? " check passed\n" : " check failed\n");
        return new Report(passed ? 200 : 500, body.toString());
    }

    private static Optional<String> failure(Check check) {
        try {
            return check.failure().get();
        } catch (RuntimeException e) {
            return Optional.of("the check threw " + e);
        }
    }

    private static void text(RoutingContext ctx, int status, String body) {
        ctx.response().setStatusCode(status).putHeader("content-type", "text/plain; charset=utf-8")
                .putHeader("x-content-type-options", "nosniff").end(body);
    }
}
