package dev.berth.manager.kubectl;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.manager.security.QuickstartCredentials;
import dev.berth.manager.testing.ManagerHarness;
import dev.berth.manager.testing.NeedsKubectl;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The identity tools kubectl users rely on, with the real kubectl and the quickstart's kubeconfig
 * against a secured manager holding the example queues and RBAC: {@code auth whoami}, {@code auth can-i}
 * (one verb, and {@code --list}) for the admin and the team-a tenant, and {@code --as} impersonation,
 * which runs a request with the impersonated user's rights and is audited with both identities.
 */
@NeedsKubectl
class IdentityKubectlTest {
    static final Path EXAMPLES = Path.of("..", "examples");
    static final String TENANT = "kubectl --context " + QuickstartCredentials.TENANT_CONTEXT + " ";

    @RegisterExtension
    static final ManagerHarness harness = ManagerHarness.empty().secured().manifests(EXAMPLES.resolve("queues")).manifests(EXAMPLES.resolve("rbac"));
    @TempDir
    static Path home;
    static Kubectl kubectl;

    @BeforeAll
    static void startSecuredManager() throws Exception {
        kubectl = Kubectl.withKubeconfig(harness.writeKubeconfig(home.resolve("kube").resolve("kubeconfig")));
    }

    @Test
    void whoamiNamesTheAdminAndTheTenantWithTheirGroups() throws Exception {
        assertThat(kubectl.run("kubectl auth whoami").ok().stdout())
                .containsPattern("Username\\s+" + QuickstartCredentials.ADMIN_USER)
                .containsPattern("Groups\\s+\\[system:masters system:authenticated\\]");
        assertThat(kubectl.run(TENANT + "auth whoami").ok().stdout())
                .containsPattern("Username\\s+" + QuickstartCredentials.TENANT_USER)
                .containsPattern("Groups\\s+\\[team-a system:authenticated\\]");
        assertThat(kubectl.run("kubectl auth whoami --as alice --as-group team-b").ok().stdout())
                .containsPattern("Username\\s+alice").containsPattern("Groups\\s+\\[team-b system:authenticated\\]");
    }

    @Test
    void canIAnswersForTheCallerAndForWhomItImpersonates() throws Exception {
        Kubectl.Result tenant = kubectl.run(TENANT + "auth can-i create workloads.kueue.x-k8s.io -n team-b");
        assertThat(tenant.exitCode()).isEqualTo(1);
        assertThat(tenant.stdout().strip()).isEqualTo("no");
        assertThat(kubectl.run(TENANT + "auth can-i create workloads.kueue.x-k8s.io -n team-a").ok().stdout().strip()).isEqualTo("yes");
        assertThat(kubectl.run("kubectl auth can-i create workloads.kueue.x-k8s.io -n team-b").ok().stdout().strip()).isEqualTo("yes");
        assertThat(kubectl.run("kubectl auth can-i '*' '*'").ok().stdout().strip()).isEqualTo("yes");
        assertThat(kubectl.run("kubectl auth can-i get /metrics").ok().stdout().strip()).isEqualTo("yes");
        assertThat(kubectl.run(TENANT + "auth can-i get /metrics").stdout().strip()).isEqualTo("no");

        Kubectl.Result asTenant = kubectl.run("kubectl auth can-i create workloads.kueue.x-k8s.io -n team-b --as "
                + QuickstartCredentials.TENANT_USER + " --as-group " + QuickstartCredentials.TENANT_GROUP);
        assertThat(asTenant.exitCode()).isEqualTo(1);
        assertThat(asTenant.stdout().strip()).isEqualTo("no");
    }

    @Test
    void canIListShowsTheTenantsRulesInItsNamespace() throws Exception {
        String rules = kubectl.run(TENANT + "auth can-i --list -n team-a").ok().stdout();
        assertThat(rules).containsPattern("workloads.kueue.x-k8s.io\\s+\\[\\]\\s+\\[\\]\\s+\\[create get list watch delete\\]")
                .containsPattern("selfsubjectaccessreviews.authorization.k8s.io\\s+\\[\\]\\s+\\[\\]\\s+\\[create\\]")
                .containsPattern("workloadpriorityclasses.kueue.x-k8s.io\\s+\\[\\]\\s+\\[research\\]\\s+\\[use\\]")
                .containsPattern("\\[/api/\\*\\]\\s+\\[\\]\\s+\\[get\\]")
                .doesNotContain("clusterqueues");
        String elsewhere = kubectl.run(TENANT + "auth can-i --list -n team-b").ok().stdout();
        assertThat(elsewhere).doesNotContain("workloads.kueue.x-k8s.io").contains("selfsubjectreviews.authentication.k8s.io");
        assertThat(kubectl.run("kubectl auth can-i --list -n team-a").ok().stdout()).containsPattern("\\*\\.\\*\\s+\\[\\]\\s+\\[\\]\\s+\\[\\*\\]");
    }

    @Test
    void theAdminActingAsAliceHasAlicesRightsAndTheAuditShowsBothIdentities() throws Exception {
        Kubectl.Result asAlice = kubectl.run("kubectl --as alice get workloads -n team-b");
        assertThat(asAlice.exitCode()).isNotZero();
        assertThat(asAlice.stderr()).contains("Forbidden")
                .contains("User \"alice\" cannot list resource \"workloads\" in API group \"kueue.x-k8s.io\" in the namespace \"team-b\"");
        assertThat(kubectl.run("kubectl get workloads -n team-b").ok().exitCode()).isZero();

        List<JsonNode> refused = auditLines(line -> line.path("code").asInt() == 403
                && line.path("impersonatedUser").path("username").asText().equals("alice"));
        assertThat(refused).isNotEmpty();
        JsonNode line = refused.get(0);
        assertThat(line.path("user").asText()).isEqualTo(QuickstartCredentials.ADMIN_USER);
        assertThat(line.path("groups").toString()).contains("system:masters");
        assertThat(line.path("impersonatedUser").path("groups").toString()).isEqualTo("[\"system:authenticated\"]");
        assertThat(line.path("verb").asText()).isEqualTo("list");
        assertThat(line.path("namespace").asText()).isEqualTo("team-b");
    }

    @Test
    void theTenantMayNotImpersonateTheAdmin() throws Exception {
        // kubectl's discovery prints a refused impersonation as "Forbidden: unknown", as it does against kube-apiserver
        Kubectl.Result asAdmin = kubectl.run(TENANT + "--as " + QuickstartCredentials.ADMIN_USER + " get clusterqueues");
        assertThat(asAdmin.exitCode()).isNotZero();
        assertThat(asAdmin.stderr()).contains("Forbidden");
        // a non-resource can-i needs no discovery, so kubectl prints the server's message
        Kubectl.Result whoami = kubectl.run(TENANT + "--as " + QuickstartCredentials.ADMIN_USER + " auth can-i get /metrics");
        assertThat(whoami.exitCode()).isNotZero();
        assertThat(whoami.stderr()).contains("users \"" + QuickstartCredentials.ADMIN_USER + "\" is forbidden: User \""
                + QuickstartCredentials.TENANT_USER + "\" cannot impersonate resource \"users\" in API group \"\" at the cluster scope");
        Kubectl.Result asMasters = kubectl.run(TENANT + "--as " + QuickstartCredentials.TENANT_USER + " --as-group system:masters auth can-i get /metrics");
        assertThat(asMasters.exitCode()).isNotZero();
        assertThat(asMasters.stderr()).contains("cannot impersonate resource \"users\"");
        assertThat(auditLines(line -> line.path("code").asInt() == 403 && line.path("user").asText().equals(QuickstartCredentials.TENANT_USER)
                && line.path("resource").asText().equals("selfsubjectaccessreviews") && line.path("impersonatedUser").isMissingNode())).isNotEmpty();
    }

    private static List<JsonNode> auditLines(java.util.function.Predicate<JsonNode> matching) throws Exception {
        ObjectMapper json = new ObjectMapper();
        List<JsonNode> found = new ArrayList<>();
        for (String text : Files.readAllLines(harness.dataDir().resolve("security").resolve("audit.log"))) {
            JsonNode line = json.readTree(text);
            if (matching.test(line)) found.add(line);
        }
        return found;
    }
}
