package dev.berth.manager.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.manager.store.PostgresObjectStore;
import dev.berth.manager.store.PostgresTestDatabase;
import dev.berth.manager.testing.ManagerClient;
import dev.berth.manager.testing.ManagerHarness;
import dev.berth.manager.testing.NeedsPostgres;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Plain reads on a PostgreSQL-backed leader are answered from the store on the read thread (ApiServer's store-read
 * branch), not on the state thread. That branch must be guarded as the state-thread path is: the same 401, 403
 * (revealing nothing of the object), 404 and 400 answers, and the same audit lines. Each probe goes over HTTPS to
 * two secured leaders holding the same objects: one over PostgreSQL with its state thread held for the whole run
 * (so only the store-read branch can answer), and one over the in-memory store (every request on the state thread).
 */
@NeedsPostgres
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StoreReadAuthorizationTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path EXAMPLES = Path.of("..", "examples");
    private static final String APPS = "/apis/apps/v1";
    private static final String TEAM_A = APPS + "/namespaces/team-a/deployments";
    private static final String TEAM_B = APPS + "/namespaces/team-b/deployments";
    private static final String SECRETS = "/api/v1/namespaces/team-a/secrets";
    /** What team-b's Deployment holds and no refusal may show: a label value, its image, a second name listed only. */
    private static final String SECRET_DATA = "aHVudGVyMi1yZWdpc3RyeS1wYXNzd29yZA==";
    private static final List<String> TEAM_B_SECRETS = List.of("confidential-tier", "payroll-build-7731", "payroll-worker", SECRET_DATA);

    private ManagerHarness storeReads;
    private ManagerHarness stateReads;

    enum Caller { NONE, BAD_TOKEN, TENANT, ADMIN }

    /** One request, who sends it, the code both leaders must answer, and what the answer must (or, as a list, must not) say. */
    record Probe(String name, Caller caller, String path, int code, List<String> mentions) {
        static Probe of(String name, Caller caller, String path, int code, String... mentions) {
            return new Probe(name, caller, path, code, List.of(mentions));
        }
    }

    static List<Probe> probes() {
        return List.of(
                Probe.of("unauthenticated GET", Caller.NONE, TEAM_A + "/web", 401),
                Probe.of("unauthenticated LIST", Caller.NONE, TEAM_A, 401),
                Probe.of("unauthenticated cluster-wide LIST", Caller.NONE, APPS + "/deployments", 401),
                Probe.of("bad token GET", Caller.BAD_TOKEN, TEAM_A + "/web", 401),
                Probe.of("bad token LIST", Caller.BAD_TOKEN, TEAM_A, 401),
                Probe.of("other namespace GET", Caller.TENANT, TEAM_B + "/payroll-api", 403, "forbidden", "team-b"),
                Probe.of("other namespace GET of a missing object", Caller.TENANT, TEAM_B + "/no-such-thing", 403, "forbidden", "team-b"),
                Probe.of("other namespace GET status", Caller.TENANT, TEAM_B + "/payroll-api/status", 403, "forbidden", "deployments/status"),
                Probe.of("other namespace GET scale", Caller.TENANT, TEAM_B + "/payroll-api/scale", 403, "forbidden", "deployments/scale"),
                Probe.of("other namespace LIST", Caller.TENANT, TEAM_B, 403, "forbidden", "team-b"),
                Probe.of("other namespace LIST with a selector", Caller.TENANT, TEAM_B + "?labelSelector=tier%3Dconfidential-tier", 403, "forbidden"),
                Probe.of("cluster-wide LIST", Caller.TENANT, APPS + "/deployments", 403, "forbidden", "cluster scope"),
                Probe.of("own namespace GET", Caller.TENANT, TEAM_A + "/web", 200, "\"name\":\"web\""),
                Probe.of("own namespace GET scale", Caller.TENANT, TEAM_A + "/web/scale", 200, "\"kind\":\"Scale\""),
                Probe.of("own namespace LIST with a selector", Caller.TENANT, TEAM_A + "?labelSelector=app%3Dweb", 200, "\"name\":\"web\""),
                Probe.of("missing object", Caller.TENANT, TEAM_A + "/no-such-thing", 404, "deployments.apps", "no-such-thing", "not found"),
                Probe.of("missing object's scale", Caller.TENANT, TEAM_A + "/no-such-thing/scale", 404, "no-such-thing", "not found"),
                Probe.of("missing object's status", Caller.ADMIN, TEAM_A + "/no-such-thing/status", 404, "no-such-thing", "not found"),
                Probe.of("an object in a namespace that does not exist", Caller.ADMIN, APPS + "/namespaces/nowhere/deployments/web", 404, "deployments.apps", "not found"),
                Probe.of("a write-only kind, even to the admin", Caller.ADMIN, SECRETS + "/registry-login", 403, "forbidden"),
                Probe.of("a write-only kind's list, even to the admin", Caller.ADMIN, SECRETS, 403, "forbidden"),
                Probe.of("bad labelSelector", Caller.TENANT, TEAM_A + "?labelSelector=app+in+%28web", 400, "labelSelector"),
                Probe.of("bad fieldSelector", Caller.TENANT, TEAM_A + "?fieldSelector=spec.nothing%3D1", 400, "field label", "spec.nothing"),
                Probe.of("forged continue token", Caller.TENANT, TEAM_A + "?limit=1&continue=Zm9yZ2Vk", 400, "continue"),
                Probe.of("continue token of garbage", Caller.TENANT, TEAM_A + "?limit=1&continue=%25%25not-base64", 400, "continue"),
                // kube-apiserver pages only for limit > 0: a negative limit is no limit (ListOptions does the same), not a 400
                Probe.of("negative limit is no limit", Caller.TENANT, TEAM_A + "?limit=-1", 200, "\"name\":\"web\""),
                Probe.of("limit not a number", Caller.TENANT, TEAM_A + "?limit=ten", 400, "limit"));
    }

    @BeforeAll
    void startBothLeaders() throws Exception {
        PostgresObjectStore postgres = PostgresObjectStore.open(PostgresTestDatabase.freshSchema("store_read_authorization"), Clock.systemUTC());
        storeReads = secured().store(postgres);
        stateReads = secured();
        for (ManagerHarness leader : List.of(storeReads, stateReads)) {
            leader.start();
            seed(leader.client());
        }
        assertThat(storeReads.store().readsShowOnlyDurableWrites()).isTrue();
        assertThat(stateReads.store().readsShowOnlyDurableWrites()).isFalse();
    }

    @AfterAll
    void stop() {
        if (storeReads != null) storeReads.close();
        if (stateReads != null) stateReads.close();
    }

    @Test
    void theStoreReadBranchAnswersEveryProbeAsTheStateThreadDoes() throws Exception {
        List<Probe> probes = probes();
        List<Optional<HttpResponse<String>>> fromTheStore = whileTheStateThreadIsHeld(storeReads,
                () -> probes.stream().map(probe -> send(storeReads, probe, Duration.ofSeconds(5))).toList());
        SoftAssertions softly = new SoftAssertions();
        for (int i = 0; i < probes.size(); i++) {
            Probe probe = probes.get(i);
            HttpResponse<String> store = fromTheStore.get(i).orElseThrow(() -> new AssertionError(
                    probe.name() + ": unanswered while the state thread was held, so not answered from the store"));
            HttpResponse<String> state = send(stateReads, probe, Duration.ofSeconds(30)).orElseThrow();
            softly.assertThat(store.statusCode()).as("%s from the store: %s", probe.name(), store.body()).isEqualTo(probe.code());
            softly.assertThat(state.statusCode()).as("%s on the state thread: %s", probe.name(), state.body()).isEqualTo(probe.code());
            for (String mention : probe.mentions()) {
                softly.assertThat(store.body()).as("%s from the store", probe.name()).containsIgnoringCase(mention);
            }
            if (probe.code() >= 400) {
                softly.assertThat(statusOf(store)).as("%s: the Status the store-read branch answers", probe.name()).isEqualTo(statusOf(state));
            }
        }
        softly.assertAll();
    }

    @Test
    void aPagedListContinuesOnTheStoreReadBranch() throws Exception {
        Probe first = Probe.of("first page", Caller.TENANT, TEAM_A + "?limit=1", 200);
        List<String> names = storeReads.whileTheStateThreadIsHeld(() -> {
            List<String> seen = new ArrayList<>();
            JsonNode page = JSON.readTree(send(storeReads, first, Duration.ofSeconds(5)).orElseThrow().body());
            seen.add(page.path("items").path(0).path("metadata").path("name").asText());
            String token = page.path("metadata").path("continue").asText();
            assertThat(token).as("a continue token after page one of several").isNotEmpty();
            Probe next = Probe.of("next page", Caller.TENANT, TEAM_A + "?limit=1&continue=" + java.net.URLEncoder.encode(token,
                    java.nio.charset.StandardCharsets.UTF_8), 200);
            HttpResponse<String> second = send(storeReads, next, Duration.ofSeconds(5)).orElseThrow();
            assertThat(second.statusCode()).as(second.body()).isEqualTo(200);
            seen.add(JSON.readTree(second.body()).path("items").path(0).path("metadata").path("name").asText());
            return seen;
        });
        assertThat(names).doesNotHaveDuplicates().contains("web").doesNotContain("");
    }

    @Test
    void aRefusalShowsNothingOfTheObjectsItGuards() throws Exception {
        for (Probe probe : probes()) {
            if (probe.code() != 401 && probe.code() != 403) continue;
            String body = send(storeReads, probe, Duration.ofSeconds(30)).orElseThrow().body();
            assertThat(body).as(probe.name()).doesNotContain("resourceVersion").doesNotContain("\"uid\"").doesNotContain("\"spec\"");
            for (String secret : TEAM_B_SECRETS) assertThat(body).as(probe.name()).doesNotContain(secret);
            if (!probe.path().contains("/payroll-api")) assertThat(body).as(probe.name()).doesNotContain("payroll-api");
        }
        // no existence oracle: refusing an object that exists reads as refusing one that does not
        String existing = send(storeReads, Probe.of("existing", Caller.TENANT, TEAM_B + "/payroll-api", 403), Duration.ofSeconds(30)).orElseThrow().body();
        String missing = send(storeReads, Probe.of("missing", Caller.TENANT, TEAM_B + "/no-such-thing", 403), Duration.ofSeconds(30)).orElseThrow().body();
        assertThat(existing.replace("payroll-api", "no-such-thing")).isEqualTo(missing);
    }

    @Test
    void everyRefusedReadIsAuditedAsOnTheStateThread() throws Exception {
        List<Probe> refused = probes().stream().filter(p -> p.code() == 401 || p.code() == 403).toList();
        int storeBefore = auditLines(storeReads).size();
        int stateBefore = auditLines(stateReads).size();
        for (Probe probe : refused) {
            send(storeReads, probe, Duration.ofSeconds(30)).orElseThrow();
            send(stateReads, probe, Duration.ofSeconds(30)).orElseThrow();
        }
        List<String> fromTheStore = withoutTimestamps(auditLines(storeReads).subList(storeBefore, auditLines(storeReads).size()));
        List<String> onTheStateThread = withoutTimestamps(auditLines(stateReads).subList(stateBefore, auditLines(stateReads).size()));
        assertThat(fromTheStore).hasSize(refused.size()).isEqualTo(onTheStateThread);
        assertThat(fromTheStore).anySatisfy(line -> assertThat(line).contains("\"user\":\"system:anonymous\"").contains("\"code\":401"));
        for (String resource : List.of("deployments", "deployments/status", "deployments/scale")) {
            assertThat(fromTheStore).as(resource).anySatisfy(line -> assertThat(line).contains("\"user\":\"" + QuickstartCredentials.TENANT_USER + "\"")
                    .contains("\"verb\":\"get\"").contains("\"resource\":\"" + resource + "\"").contains("\"namespace\":\"team-b\"").contains("\"code\":403"));
        }
        assertThat(fromTheStore).anySatisfy(line -> assertThat(line).contains("\"verb\":\"list\"").contains("\"namespace\":\"team-b\"").contains("\"code\":403"));
        assertThat(fromTheStore).anySatisfy(line -> assertThat(line).contains("\"verb\":\"list\"").contains("\"namespace\":\"\"").contains("\"code\":403"));
    }

    private static ManagerHarness secured() {
        return ManagerHarness.empty().secured().manifests(EXAMPLES.resolve("queues")).manifests(EXAMPLES.resolve("rbac"));
    }

    /** team-a's Deployments the tenant may read (and a Secret nobody may), and team-b's two it may not. No queue label: nothing is scheduled. */
    private static void seed(ManagerClient admin) {
        admin.create(TEAM_A, deployment("team-a", "web", "web", "web-tier", "nginx:1.27"));
        admin.create(TEAM_A, deployment("team-a", "cache", "cache", "web-tier", "redis:7"));
        admin.create(TEAM_B, deployment("team-b", "payroll-api", "payroll", "confidential-tier", "registry.example/payroll:payroll-build-7731"));
        admin.create(SECRETS, "{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"registry-login\",\"namespace\":\"team-a\"},"
                + "\"data\":{\"password\":\"" + SECRET_DATA + "\"}}");
        admin.create(TEAM_B, deployment("team-b", "payroll-worker", "payroll", "confidential-tier", "registry.example/payroll:payroll-build-7731"));
    }

    static String deployment(String namespace, String name, String app, String tier, String image) {
        return "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"" + namespace
                + "\",\"labels\":{\"app\":\"" + app + "\",\"tier\":\"" + tier + "\"}},\"spec\":{\"replicas\":1,\"selector\":{\"matchLabels\":{\"app\":\""
                + app + "\"}},\"template\":{\"metadata\":{\"labels\":{\"app\":\"" + app + "\"}},\"spec\":{\"containers\":[{\"name\":\"main\",\"image\":\""
                + image + "\"}]}}}}";
    }

    private static Optional<HttpResponse<String>> send(ManagerHarness leader, Probe probe, Duration timeout) {
        ManagerClient anonymous = ManagerClient.trusting(leader.baseUrl(), leader.credentials().certificatePem(), timeout);
        ManagerClient client = switch (probe.caller()) {
            case NONE -> anonymous;
            case BAD_TOKEN -> anonymous.withToken("not-a-token-of-this-manager-0123456789");
            case TENANT -> anonymous.withToken(leader.tenantToken());
            case ADMIN -> anonymous.withToken(leader.adminToken());
        };
        return client.trySend("GET", probe.path(), null, null);
    }

    /** The Status of a refusal without what differs between two managers by nature. */
    private static JsonNode statusOf(HttpResponse<String> response) throws Exception {
        return JSON.readTree(response.body());
    }

    /** Runs reads while the leader's state thread is held, and checks the hold was real: a write sent meanwhile waits for it. */
    private static <T> T whileTheStateThreadIsHeld(ManagerHarness leader, Supplier<T> reads) throws Exception {
        CompletableFuture<HttpResponse<String>> write = new CompletableFuture<>();
        T answers = leader.whileTheStateThreadIsHeld(() -> {
            T read = reads.get();
            ManagerClient admin = leader.client();
            write.completeAsync(() -> admin.send("POST", TEAM_A, ManagerClient.JSON_TYPE,
                    deployment("team-a", "written-while-held", "held", "held", "nginx:1.27")));
            await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(3)).until(() -> !write.isDone());
            return read;
        });
        assertThat(write.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(201);
        return answers;
    }

    private static List<String> auditLines(ManagerHarness leader) throws Exception {
        Path file = leader.dataDir().resolve("security").resolve("audit.log");
        return Files.exists(file) ? Files.readAllLines(file) : List.of();
    }

    private static List<String> withoutTimestamps(List<String> lines) {
        List<String> out = new ArrayList<>();
        Function<String, String> strip = line -> line.replaceFirst("\"timestamp\":\"[^\"]*\",", "");
        for (String line : lines) out.add(strip.apply(line));
        return out;
    }
}
