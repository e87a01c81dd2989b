package dev.berth.manager.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.manager.security.SecureManager.Reply;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Impersonation over HTTPS as kube-apiserver does it: each part of the identity asked for (user or
 * service account, groups, extras, uid) needs the verb impersonate on it, or 403 naming that part;
 * groups, extras or a uid without a user are a 400; an allowed request runs with the impersonated
 * identity's rights (priority-class use included), and the audit names both identities.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ImpersonationTest {
    static final String KUEUE = "/apis/kueue.x-k8s.io/v1beta2";
    static final String WHOAMI = "/apis/authentication.k8s.io/v1/selfsubjectreviews";
    static final String YAML = "application/yaml";
    static final String RBAC = "/apis/rbac.authorization.k8s.io/v1";

    @TempDir
    static Path dir;
    SecureManager api;

    @BeforeAll
    void start() throws Exception {
        api = new SecureManager(dir, SecurityOptions.DEFAULT_TENANT_RATE, Optional.empty());
        // alice (team-a) may impersonate the user bob and the service account team-a:builder, nothing else
        created(api.send("POST", RBAC + "/clusterroles", SecureManager.ADMIN, YAML,
                "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: impersonate-bob}\n"
                        + "rules: [{apiGroups: [''], resources: [users], resourceNames: [bob], verbs: [impersonate]}]\n"));
        created(api.send("POST", RBAC + "/clusterrolebindings", SecureManager.ADMIN, YAML,
                "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata: {name: alice-impersonates-bob}\n"
                        + "roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: impersonate-bob}\n"
                        + "subjects: [{kind: User, name: alice}]\n"));
        created(api.send("POST", RBAC + "/namespaces/team-a/roles", SecureManager.ADMIN, YAML,
                "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: impersonate-builder, namespace: team-a}\n"
                        + "rules: [{apiGroups: [''], resources: [serviceaccounts], resourceNames: [builder], verbs: [impersonate]}]\n"));
        created(api.send("POST", RBAC + "/namespaces/team-a/rolebindings", SecureManager.ADMIN, YAML,
                "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: alice-impersonates-builder, namespace: team-a}\n"
                        + "roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: impersonate-builder}\n"
                        + "subjects: [{kind: User, name: alice}]\n"));
    }

    @AfterAll
    void stop() throws Exception {
        api.close();
    }

    private static void created(Reply reply) {
        assertThat(reply.code()).as(reply.body().toString()).isEqualTo(201);
    }

    private Reply as(String method, String path, String token, Map<String, List<String>> headers, String body) throws Exception {
        return api.sendBytes(method, path, token, body == null ? null : YAML, body == null ? null : body.getBytes(StandardCharsets.UTF_8), headers);
    }

    private Reply whoami(String token, Map<String, List<String>> headers) throws Exception {
        return api.sendBytes("POST", WHOAMI, token, "application/json", "{}".getBytes(StandardCharsets.UTF_8), headers);
    }

    private static Map<String, List<String>> headers(String... namesAndValues) {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            headers.computeIfAbsent(namesAndValues[i], k -> new ArrayList<>()).add(namesAndValues[i + 1]);
        }
        return headers;
    }

    @Test
    void anAdminActsAsAUserWithGroupsUidAndExtras() throws Exception {
        Reply reply = whoami(SecureManager.ADMIN, headers("Impersonate-User", "carol", "Impersonate-Group", "team-b",
                "Impersonate-Group", "ops", "Impersonate-Uid", "42", "Impersonate-Extra-Scopes", "read",
                "Impersonate-Extra-Scopes", "write", "Impersonate-Extra-Acme.com%2fProject", "x"));
        assertThat(reply.code()).as(reply.body().toString()).isEqualTo(201);
        JsonNode user = reply.body().path("status").path("userInfo");
        assertThat(user.path("username").asText()).isEqualTo("carol");
        assertThat(user.path("uid").asText()).isEqualTo("42");
        assertThat(user.path("groups").toString()).isEqualTo("[\"team-b\",\"ops\",\"system:authenticated\"]");
        assertThat(user.path("extra").path("scopes").toString()).isEqualTo("[\"read\",\"write\"]");
        assertThat(user.path("extra").path("acme.com/project").toString()).isEqualTo("[\"x\"]");
    }

    @Test
    void theImpersonatedIdentitysRightsApplyNotTheCallers() throws Exception {
        Reply asAlice = as("GET", KUEUE + "/namespaces/team-b/workloads", SecureManager.ADMIN, headers("Impersonate-User", "alice"), null);
        assertThat(asAlice.code()).isEqualTo(403);
        assertThat(asAlice.message()).isEqualTo("workloads.kueue.x-k8s.io is forbidden: User \"alice\" cannot list resource \"workloads\""
                + " in API group \"kueue.x-k8s.io\" in the namespace \"team-b\"");
        assertThat(as("GET", KUEUE + "/namespaces/team-b/workloads", SecureManager.ADMIN,
                headers("Impersonate-User", "bob", "Impersonate-Group", "team-b"), null).code()).isEqualTo(200);

        List<String> before = api.contents();
        Map<String, List<String>> asTeamA = headers("Impersonate-User", "alice", "Impersonate-Group", "team-a");
        Reply clusterQueue = as("POST", KUEUE + "/clusterqueues", SecureManager.ADMIN, asTeamA,
                "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: sneaky}\nspec: {namespaceSelector: {}}\n");
        assertThat(clusterQueue.code()).isEqualTo(403);
        Reply production = as("POST", "/apis/batch/v1/namespaces/team-a/jobs", SecureManager.ADMIN, asTeamA,
                TenantAuthorizationTest.job("impersonated-urgent", "production"));
        assertThat(production.code()).as(production.body().toString()).isEqualTo(403);
        assertThat(production.message()).contains("User \"alice\" cannot use priority class \"production\"");
        assertThat(api.contents()).isEqualTo(before);

        Reply research = as("POST", "/apis/batch/v1/namespaces/team-a/jobs", SecureManager.ADMIN, asTeamA,
                TenantAuthorizationTest.job("impersonated-research", "research"));
        assertThat(research.code()).as(research.body().toString()).isEqualTo(201);
        JsonNode line = auditLine("impersonated-research");
        assertThat(line.path("user").asText()).isEqualTo("admin");
        assertThat(line.path("groups").toString()).contains("system:masters");
        assertThat(line.path("impersonatedUser").path("username").asText()).isEqualTo("alice");
        assertThat(line.path("impersonatedUser").path("groups").toString()).isEqualTo("[\"team-a\",\"system:authenticated\"]");
        assertThat(line.path("code").asInt()).isEqualTo(201);
    }

    @Test
    void aCallerWithoutTheVerbImpersonateIsRefusedNamingWhatItAskedFor() throws Exception {
        List<String> before = api.contents();
        Reply asAdmin = as("POST", "/apis/batch/v1/namespaces/team-b/jobs", SecureManager.BOB, headers("Impersonate-User", "admin"),
                TenantAuthorizationTest.job("not-mine", ""));
        assertThat(asAdmin.code()).isEqualTo(403);
        assertThat(asAdmin.body().path("reason").asText()).isEqualTo("Forbidden");
        assertThat(asAdmin.message()).isEqualTo("users \"admin\" is forbidden: User \"bob\" cannot impersonate resource \"users\""
                + " in API group \"\" at the cluster scope");
        assertThat(asAdmin.body().path("details").path("kind").asText()).isEqualTo("users");
        assertThat(api.contents()).isEqualTo(before);

        // alice may be bob, but not bob with more groups, another uid, or extras
        assertThat(whoami(SecureManager.ALICE, headers("Impersonate-User", "bob")).body().path("status").path("userInfo")
                .path("username").asText()).isEqualTo("bob");
        assertThat(whoami(SecureManager.ALICE, headers("Impersonate-User", "bob", "Impersonate-Group", "system:masters")).message())
                .isEqualTo("groups \"system:masters\" is forbidden: User \"alice\" cannot impersonate resource \"groups\" in API group \"\" at the cluster scope");
        assertThat(whoami(SecureManager.ALICE, headers("Impersonate-User", "bob", "Impersonate-Uid", "1")).message())
                .isEqualTo("uids.authentication.k8s.io \"1\" is forbidden: User \"alice\" cannot impersonate resource \"uids\""
                        + " in API group \"authentication.k8s.io\" at the cluster scope");
        assertThat(whoami(SecureManager.ALICE, headers("Impersonate-User", "bob", "Impersonate-Extra-Scopes", "all")).message())
                .isEqualTo("userextras.authentication.k8s.io \"all\" is forbidden: User \"alice\" cannot impersonate resource"
                        + " \"userextras/scopes\" in API group \"authentication.k8s.io\" at the cluster scope");
        assertThat(whoami(SecureManager.ALICE, headers("Impersonate-User", "carol")).code()).isEqualTo(403);
        JsonNode refused = api.auditLines().stream().map(ImpersonationTest::json)
                .filter(l -> l.path("user").asText().equals("bob") && l.path("code").asInt() == 403).findFirst().orElseThrow();
        assertThat(refused.path("impersonatedUser").isMissingNode()).isTrue();
    }

    @Test
    void aServiceAccountIsImpersonatedInItsNamespaceWithItsGroups() throws Exception {
        Reply builder = whoami(SecureManager.ALICE, headers("Impersonate-User", "system:serviceaccount:team-a:builder"));
        assertThat(builder.code()).as(builder.body().toString()).isEqualTo(201);
        assertThat(builder.body().path("status").path("userInfo").path("groups").toString())
                .isEqualTo("[\"system:serviceaccounts\",\"system:serviceaccounts:team-a\",\"system:authenticated\"]");
        assertThat(whoami(SecureManager.ALICE, headers("Impersonate-User", "system:serviceaccount:team-b:builder")).message())
                .isEqualTo("serviceaccounts \"builder\" is forbidden: User \"alice\" cannot impersonate resource \"serviceaccounts\""
                        + " in API group \"\" in the namespace \"team-b\"");
    }

    @Test
    void groupsUidOrExtrasWithoutAUserAreABadRequest() throws Exception {
        for (Map<String, List<String>> headers : List.of(headers("Impersonate-Group", "system:masters"), headers("Impersonate-Uid", "1"),
                headers("Impersonate-Extra-Scopes", "all"))) {
            Reply reply = as("GET", KUEUE + "/namespaces/team-a/workloads", SecureManager.ADMIN, headers, null);
            assertThat(reply.code()).as(headers.toString()).isEqualTo(400);
            assertThat(reply.body().path("reason").asText()).isEqualTo("BadRequest");
            assertThat(reply.message()).contains("without impersonating a user (Impersonate-User)");
        }
        Map<String, List<String>> many = headers("Impersonate-User", "carol");
        for (int i = 0; i < Impersonation.MAX_PARTS; i++) many.computeIfAbsent("Impersonate-Group", k -> new ArrayList<>()).add("g" + i);
        Reply tooMany = whoami(SecureManager.ADMIN, many);
        assertThat(tooMany.code()).isEqualTo(400);
        assertThat(tooMany.message()).contains("too many impersonation headers");
    }

    /** The audit line of a write, awaited: a write is recorded when its response has ended, which the client may see first. */
    private JsonNode auditLine(String name) {
        return await().atMost(Duration.ofSeconds(10)).until(() -> api.auditLines().stream().map(ImpersonationTest::json)
                .filter(l -> l.path("name").asText().equals(name)
                        || l.path("resource").asText().equals("jobs") && l.path("code").asInt() == 201 && l.path("impersonatedUser").isObject())
                .findFirst(), java.util.Optional::isPresent).orElseThrow();
    }

    private static JsonNode json(String line) {
        try {
            return SecureManager.JSON.readTree(line);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
