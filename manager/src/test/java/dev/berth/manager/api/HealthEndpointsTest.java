package dev.berth.manager.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** /livez, /readyz and /healthz answer as kube-apiserver's do, over real HTTP on loopback. */
class HealthEndpointsTest {
    private final AtomicReference<String> storeFailure = new AtomicReference<>();
    private final AtomicReference<String> databaseSilent = new AtomicReference<>();
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private Vertx vertx;
    private HttpServer server;

    @BeforeEach
    void start() throws Exception {
        vertx = Vertx.vertx();
        Router router = Router.router(vertx);
        new HealthEndpoints().with(new HealthEndpoints.Check("store", () -> Optional.ofNullable(storeFailure.get())))
                .with(new HealthEndpoints.Check("store-readiness", () -> Optional.ofNullable(databaseSilent.get()), true)).mount(router);
        server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
    }

    @AfterEach
    void stop() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private HttpResponse<String> get(String path) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.actualPort() + path))
                .timeout(Duration.ofSeconds(10)).build();
        return client.send(request, HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void eachEndpointIsOkWhileEveryCheckPassesAndVerboseListsThem() throws Exception {
        for (String endpoint : new String[] {"/livez", "/readyz", "/healthz"}) {
            assertThat(get(endpoint).statusCode()).isEqualTo(200);
            assertThat(get(endpoint).body()).isEqualTo("ok");
        }
        assertThat(get("/livez?verbose").body()).isEqualTo("[+]ping ok\n[+]store ok\nlivez check passed\n");
        assertThat(get("/readyz?verbose").body()).isEqualTo("[+]ping ok\n[+]store ok\n[+]store-readiness ok\nreadyz check passed\n");
        assertThat(get("/livez/store").statusCode()).isEqualTo(200);
    }

    @Test
    void aFailedCheckFailsEveryEndpointNamingTheCheckButWithholdingItsReason() throws Exception {
        storeFailure.set("a journal force failed: java.io.IOException: /var/lib/berth/journal.log: Input/output error");

        for (String endpoint : new String[] {"livez", "healthz"}) {
            HttpResponse<String> answer = get("/" + endpoint);
            assertThat(answer.statusCode()).isEqualTo(500);
            assertThat(answer.body()).isEqualTo("[+]ping ok\n[-]store failed: reason withheld\n" + endpoint + " check failed\n");
        }
        assertThat(get("/readyz").body()).isEqualTo("[+]ping ok\n[-]store failed: reason withheld\n[+]store-readiness ok\nreadyz check failed\n");
        assertThat(get("/livez/store").statusCode()).isEqualTo(500);
        assertThat(get("/livez/ping").statusCode()).isEqualTo(200);
        assertThat(get("/livez/etcd").statusCode()).isEqualTo(404);

        storeFailure.set(null);
        assertThat(get("/livez").statusCode()).isEqualTo(200);
    }

    @Test
    void aReadinessOnlyCheckFailsReadinessAloneAndIsNotALivenessCheck() throws Exception {
        databaseSilent.set("PostgreSQL read failed: Connection refused");

        assertThat(get("/readyz").statusCode()).isEqualTo(500);
        assertThat(get("/readyz").body()).contains("[-]store-readiness failed: reason withheld").doesNotContain("refused");
        assertThat(get("/readyz/store-readiness").statusCode()).isEqualTo(500);
        assertThat(get("/livez").statusCode()).as("a database outage must not get the manager restarted").isEqualTo(200);
        assertThat(get("/healthz").statusCode()).isEqualTo(200);
        assertThat(get("/livez/store-readiness").statusCode()).isEqualTo(404);
    }

    @Test
    void anExcludedCheckIsSkippedAndListedAsExcludedAndAnUnknownNameWarns() throws Exception {
        storeFailure.set("a journal force failed");

        HttpResponse<String> answer = get("/livez?verbose&exclude=store&exclude=etcd");

        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.body()).isEqualTo("[+]ping ok\n[+]store excluded: ok\n"
                + "warn: some health checks cannot be excluded: no matches for \"etcd\"\nlivez check passed\n");
        assertThat(get("/livez?exclude=store").body()).isEqualTo("ok");
        assertThat(get("/livez?exclude=ping").statusCode()).isEqualTo(500);
    }
}
