package dev.berth.manager.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.security.SecureManager.Reply;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every action a tenant may not take, tried over HTTPS as a tenant (403) and as an anonymous caller (401); nothing changes. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TenantAuthorizationTest {
    static final String KUEUE = "/apis/kueue.x-k8s.io/v1beta2";
    static final String MERGE = "application/merge-patch+json";
    static final String YAML = "application/yaml";

    @TempDir
    static Path dir;
    SecureManager api;

    @BeforeAll
    void start() throws Exception {
        api = new SecureManager(dir, SecurityOptions.DEFAULT_TENANT_RATE, Optional.empty());
        Reply bobsJob = api.send("POST", "/apis/batch/v1/namespaces/team-b/jobs", SecureManager.BOB, YAML, job("secret-project-x", ""));
        assertThat(bobsJob.code()).as(bobsJob.body().toString()).isEqualTo(201);
    }

    @AfterAll
    void stop() throws Exception {
        api.close();
    }

    record Forbidden(String what, String method, String path, String contentType, String body) {
        @Override
        public String toString() {
            return what;
        }
    }

    static Stream<Forbidden> forbiddenToTenants() {
        return Stream.of(
                new Forbidden("create a ClusterQueue", "POST", KUEUE + "/clusterqueues", YAML,
                        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: mine}\nspec: {namespaceSelector: {}}\n"),
                new Forbidden("patch a ResourceFlavor", "PATCH", KUEUE + "/resourceflavors/a100", MERGE, "{\"metadata\":{\"labels\":{\"x\":\"y\"}}}"),
                new Forbidden("stop a ClusterQueue", "PATCH", KUEUE + "/clusterqueues/team-a-cq", MERGE, "{\"spec\":{\"stopPolicy\":\"Hold\"}}"),
                new Forbidden("delete a ClusterQueue", "DELETE", KUEUE + "/clusterqueues/team-a-cq", null, null),
                new Forbidden("label its own namespace", "PATCH", "/api/v1/namespaces/team-a", MERGE, "{\"metadata\":{\"labels\":{\"team\":\"team-b\"}}}"),
                new Forbidden("create a WorkloadPriorityClass", "POST", KUEUE + "/workloadpriorityclasses", YAML,
                        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: WorkloadPriorityClass\nmetadata: {name: urgent}\nvalue: 100000\n"),
                new Forbidden("read another namespace's workloads", "GET", KUEUE + "/namespaces/team-b/workloads", null, null),
                new Forbidden("read another namespace's job by name", "GET", "/apis/batch/v1/namespaces/team-b/jobs/secret-project-x", null, null),
                new Forbidden("read a job that does not exist elsewhere", "GET", "/apis/batch/v1/namespaces/team-b/jobs/no-such-job", null, null),
                new Forbidden("list workloads in all namespaces", "GET", KUEUE + "/workloads", null, null),
                new Forbidden("watch workloads in all namespaces", "GET", KUEUE + "/workloads?watch=true", null, null),
                new Forbidden("read another namespace's events", "GET", "/api/v1/namespaces/team-b/events", null, null),
                new Forbidden("submit into another namespace", "POST", "/apis/batch/v1/namespaces/team-b/jobs", YAML, job("intruder", "")),
                new Forbidden("read Secrets", "GET", "/api/v1/namespaces/kueue-system/secrets", null, null),
                new Forbidden("write a Secret", "POST", "/api/v1/namespaces/kueue-system/secrets", YAML,
                        "apiVersion: v1\nkind: Secret\nmetadata: {name: s, namespace: kueue-system}\ndata: {}\n"),
                new Forbidden("bind itself to cluster-admin", "POST", "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings", YAML,
                        "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata: {name: me}\n"
                                + "roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin}\n"
                                + "subjects: [{kind: User, name: alice}]\n"),
                new Forbidden("write a RoleBinding in its namespace", "POST", "/apis/rbac.authorization.k8s.io/v1/namespaces/team-a/rolebindings", YAML,
                        "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: me, namespace: team-a}\n"
                                + "roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin}\n"
                                + "subjects: [{kind: User, name: alice}]\n"),
                new Forbidden("edit the tenant role", "PATCH", "/apis/rbac.authorization.k8s.io/v1/clusterroles/berth-tenant", MERGE,
                        "{\"rules\":[{\"apiGroups\":[\"*\"],\"resources\":[\"*\"],\"verbs\":[\"*\"]}]}"),
                new Forbidden("create a MultiKueueCluster", "POST", KUEUE + "/multikueueclusters", YAML,
                        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: MultiKueueCluster\nmetadata: {name: c}\nspec: {}\n"));
    }

    @ParameterizedTest(name = "a tenant may not {0}")
    @MethodSource("forbiddenToTenants")
    void tenantIsForbidden(Forbidden action) throws Exception {
        List<String> before = api.contents();
        Reply reply = api.send(action.method(), action.path(), SecureManager.ALICE, action.contentType(), action.body());
        assertThat(reply.code()).as(reply.body().toString()).isEqualTo(403);
        assertThat(reply.body().path("reason").asText()).isEqualTo("Forbidden");
        assertThat(reply.body().path("kind").asText()).isEqualTo("Status");
        assertThat(reply.message()).contains("User \"alice\" cannot");
        if (nameIn(action).isEmpty()) assertThat(reply.body().toString()).doesNotContain("secret-project-x");
        assertThat(reply.body().toString()).doesNotContain("team-b-queue").doesNotContain("agnhost");
        assertThat(api.contents()).isEqualTo(before);
    }

    @ParameterizedTest(name = "an anonymous caller may not {0}")
    @MethodSource("forbiddenToTenants")
    void anonymousIsUnauthorized(Forbidden action) throws Exception {
        List<String> before = api.contents();
        Reply reply = api.send(action.method(), action.path(), null, action.contentType(), action.body());
        assertThat(reply.code()).isEqualTo(401);
        assertThat(reply.body().path("reason").asText()).isEqualTo("Unauthorized");
        assertThat(api.contents()).isEqualTo(before);
        Reply badToken = api.send(action.method(), action.path(), "not-a-token", action.contentType(), action.body());
        assertThat(badToken.code()).isEqualTo(401);
        assertThat(badToken.body().toString()).doesNotContain("not-a-token");
    }

    private static String nameIn(Forbidden action) {
        return action.path().endsWith("/secret-project-x") ? "secret-project-x" : "";
    }

    @Test
    void healthEndpointsNeedNoToken() throws Exception {
        assertThat(api.get("/healthz", null).code()).isEqualTo(200);
        assertThat(api.get("/version", null).code()).isEqualTo(200);
        assertThat(api.get("/apis/batch/v1/namespaces/team-a/jobs", null).code()).isEqualTo(401);
    }

    @Test
    void aTenantSubmitsAndReadsInItsOwnNamespaceOnly() throws Exception {
        Reply created = api.send("POST", "/apis/batch/v1/namespaces/team-a/jobs", SecureManager.ALICE, YAML, job("alice-job", ""));
        assertThat(created.code()).as(created.body().toString()).isEqualTo(201);
        Reply workloads = api.get(KUEUE + "/namespaces/team-a/workloads", SecureManager.ALICE);
        assertThat(workloads.code()).isEqualTo(200);
        assertThat(workloads.body().path("items")).isNotEmpty()
                .allSatisfy(item -> assertThat(item.path("metadata").path("namespace").asText()).isEqualTo("team-a"));
        assertThat(api.get(KUEUE + "/namespaces/team-a/localqueues/team-a-queue", SecureManager.ALICE).code()).isEqualTo(200);
        assertThat(api.get(KUEUE + "/workloads", SecureManager.ADMIN).code()).isEqualTo(200);
    }

    @Test
    void aTenantCannotRaiseItsPriorityBeyondWhatItsBindingAllows() throws Exception {
        List<String> before = api.contents();
        Reply production = api.send("POST", "/apis/batch/v1/namespaces/team-a/jobs", SecureManager.ALICE, YAML, job("urgent", "production"));
        assertThat(production.code()).as(production.body().toString()).isEqualTo(403);
        assertThat(production.body().path("details").path("causes").get(0).path("field").asText())
                .isEqualTo("metadata.labels[kueue.x-k8s.io/priority-class]");
        assertThat(production.message()).contains("cannot use priority class \"production\"");
        assertThat(api.contents()).isEqualTo(before);

        Reply research = api.send("POST", "/apis/batch/v1/namespaces/team-a/jobs", SecureManager.ALICE, YAML, job("experiment", "research"));
        assertThat(research.code()).as(research.body().toString()).isEqualTo(201);
        Reply admin = api.send("POST", "/apis/batch/v1/namespaces/team-a/jobs", SecureManager.ADMIN, YAML, job("release", "production"));
        assertThat(admin.code()).as(admin.body().toString()).isEqualTo(201);
    }

    @Test
    void anAdminManagesQueuesAndRbac() throws Exception {
        Reply binding = api.send("POST", "/apis/rbac.authorization.k8s.io/v1/namespaces/team-a/rolebindings", SecureManager.ADMIN, YAML,
                "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: bob-reads-a, namespace: team-a}\n"
                        + "roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: berth-tenant}\n"
                        + "subjects: [{kind: User, name: bob}]\n");
        assertThat(binding.code()).as(binding.body().toString()).isEqualTo(201);
        assertThat(api.get(KUEUE + "/namespaces/team-a/workloads", SecureManager.BOB).code()).isEqualTo(200);
        assertThat(api.send("DELETE", "/apis/rbac.authorization.k8s.io/v1/namespaces/team-a/rolebindings/bob-reads-a",
                SecureManager.ADMIN, null, (String) null).code()).isEqualTo(200);
        assertThat(api.get(KUEUE + "/namespaces/team-a/workloads", SecureManager.BOB).code()).isEqualTo(403);

        Reply invalid = api.send("POST", "/apis/rbac.authorization.k8s.io/v1/clusterroles", SecureManager.ADMIN, YAML,
                "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: broken}\nrules: [{apiGroups: [\"\"]}]\n");
        assertThat(invalid.code()).isEqualTo(422);
        assertThat(invalid.body().path("details").path("causes").findValuesAsText("field")).contains("rules[0].verbs");
    }

    static String job(String name, String priorityClass) {
        return "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: " + name + "\n  labels:\n    kueue.x-k8s.io/queue-name: team-queue\n"
                + (priorityClass.isEmpty() ? "" : "    kueue.x-k8s.io/priority-class: " + priorityClass + "\n")
                + "spec:\n  parallelism: 1\n  completions: 1\n  suspend: true\n  template:\n    spec:\n      restartPolicy: Never\n"
                + "      containers:\n      - name: c\n        image: agnhost\n        resources:\n          requests: {cpu: 1}\n";
    }

}
