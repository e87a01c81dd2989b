package dev.berth.manager.kubectl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.berth.manager.security.QuickstartCredentials;
import dev.berth.manager.store.PostgresObjectStore;
import dev.berth.manager.store.PostgresTestDatabase;
import dev.berth.manager.testing.ManagerClient;
import dev.berth.manager.testing.ManagerHarness;
import dev.berth.manager.testing.NeedsKubectl;
import dev.berth.manager.testing.NeedsPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real kubectl, with the quickstart's kubeconfig, against a secured leader over PostgreSQL whose state thread is
 * held for every command: what kubectl is answered comes from the store-read branch (ApiServer), and it must read
 * as from any Kubernetes API server: tables, YAML, label selectors, NotFound, and Forbidden for another tenant's
 * namespace without a word of what is there.
 */
@NeedsKubectl
@NeedsPostgres
class StoreReadKubectlTest {
    private static final Path EXAMPLES = Path.of("..", "examples");
    private static final String TENANT = "kubectl --request-timeout=10s --context " + QuickstartCredentials.TENANT_CONTEXT + " ";
    private static final String ADMIN = "kubectl --request-timeout=10s ";

    @TempDir
    static Path home;
    static ManagerHarness leader;
    static Kubectl kubectl;

    @BeforeAll
    static void startALeaderOverPostgres() throws Exception {
        kubectl = Kubectl.withKubeconfig(home.resolve("kube").resolve("kubeconfig"));
        PostgresObjectStore postgres = PostgresObjectStore.open(PostgresTestDatabase.freshSchema("store_read_kubectl"), Clock.systemUTC());
        leader = ManagerHarness.empty().secured().store(postgres).manifests(EXAMPLES.resolve("queues")).manifests(EXAMPLES.resolve("rbac"));
        leader.start();
        assertThat(leader.store().readsShowOnlyDurableWrites()).isTrue();
        leader.writeKubeconfig(home.resolve("kube").resolve("kubeconfig"));
        ManagerClient admin = leader.client();
        admin.create("/apis/apps/v1/namespaces/team-a/deployments", deployment("team-a", "web", "web", "nginx:1.27"));
        admin.create("/apis/apps/v1/namespaces/team-a/deployments", deployment("team-a", "api", "api", "nginx:1.27"));
        admin.create("/apis/apps/v1/namespaces/team-b/deployments", deployment("team-b", "payroll-api", "payroll", "registry.example/payroll:payroll-build-7731"));
        // discovery once with the state thread free, as a kubectl of a user who has run it before
        kubectl.run(ADMIN + "api-resources").ok();
    }

    @AfterAll
    static void stop() {
        if (leader != null) leader.close();
    }

    @Test
    void theTenantReadsItsNamespaceFromTheStore() throws Exception {
        leader.whileTheStateThreadIsHeld(() -> {
            String table = kubectl.run(TENANT + "get deployments -n team-a").ok().stdout();
            assertThat(table).containsPattern("NAME\\s+READY").containsPattern("(?m)^web\\s").containsPattern("(?m)^api\\s");

            String yaml = kubectl.run(TENANT + "get deployment web -n team-a -o yaml").ok().stdout();
            assertThat(yaml).contains("kind: Deployment").contains("name: web").contains("namespace: team-a").contains("image: nginx:1.27");

            String selected = kubectl.run(TENANT + "get deployments -n team-a -l app=web -o name").ok().stdout();
            assertThat(selected.strip()).isEqualTo("deployment.apps/web");

            String scale = kubectl.run(TENANT + "get --raw /apis/apps/v1/namespaces/team-a/deployments/web/scale").ok().stdout();
            assertThat(scale).contains("\"kind\":\"Scale\"").contains("\"replicas\":1");
            return null;
        });
    }

    @Test
    void aMissingObjectIsNotFoundAndABadSelectorIsRefused() throws Exception {
        leader.whileTheStateThreadIsHeld(() -> {
            Kubectl.Result missing = kubectl.run(TENANT + "get deployment no-such-thing -n team-a");
            assertThat(missing.exitCode()).isNotZero();
            assertThat(missing.stderr()).contains("NotFound").contains("deployments.apps \"no-such-thing\" not found");

            Kubectl.Result badSelector = kubectl.run(java.util.List.of("kubectl", "--request-timeout=10s", "--context",
                    QuickstartCredentials.TENANT_CONTEXT, "get", "deployments", "-n", "team-a", "-l", "app in (web"));
            assertThat(badSelector.exitCode()).isNotZero();
            assertThat(badSelector.stderr()).contains("Error from server (BadRequest)").containsIgnoringCase("selector");
            return null;
        });
    }

    @Test
    void anotherTenantsNamespaceIsForbiddenAndShowsNothing() throws Exception {
        leader.whileTheStateThreadIsHeld(() -> {
            for (String command : new String[] {"get deployment payroll-api -n team-b", "get deployment payroll-api -n team-b -o yaml",
                    "get deployments -n team-b", "get deployments -n team-b -l app=payroll", "get deployments -A"}) {
                Kubectl.Result refused = kubectl.run(TENANT + command);
                assertThat(refused.exitCode()).as(command).isNotZero();
                assertThat(refused.stderr()).as(command).contains("Forbidden").doesNotContain("payroll-build-7731");
                assertThat(refused.stdout()).as(command).doesNotContain("payroll");
            }
            // the admin reads it, across namespaces with a selector
            String all = kubectl.run(ADMIN + "get deployments -A -l app=payroll -o name").ok().stdout();
            assertThat(all.strip()).isEqualTo("deployment.apps/payroll-api");
            return null;
        });
    }

    /**
     * kubectl get -w lists first (from the store) and then watches from that list's resourceVersion (on the state
     * thread's watch hub): the seam between the two must lose nothing written after the list.
     */
    @Test
    void aWatchFromTheResourceVersionOfAStoreListMissesNothing() throws Exception {
        Path output = home.resolve("watch.txt");
        Process watch = kubectl.start(TENANT + "get deployments -n team-a -w -o name", output);
        try {
            await().atMost(Duration.ofSeconds(20)).until(() -> Files.readString(output).contains("deployment.apps/web"));
            leader.client().create("/apis/apps/v1/namespaces/team-a/deployments", deployment("team-a", "late", "late", "nginx:1.27"));
            await().atMost(Duration.ofSeconds(20)).until(() -> Files.readString(output).contains("deployment.apps/late"));
            assertThat(watch.isAlive()).as(Files.readString(output)).isTrue();
        } finally {
            watch.destroy();
            watch.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static String deployment(String namespace, String name, String app, String image) {
        return "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"" + namespace
                + "\",\"labels\":{\"app\":\"" + app + "\"}},\"spec\":{\"replicas\":1,\"selector\":{\"matchLabels\":{\"app\":\"" + app
                + "\"}},\"template\":{\"metadata\":{\"labels\":{\"app\":\"" + app + "\"}},\"spec\":{\"containers\":[{\"name\":\"main\",\"image\":\""
                + image + "\"}]}}}}";
    }
}
