package dev.berth.manager.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.manager.security.SecureManager.Reply;
import java.nio.file.Path;
import java.util.ArrayList;
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

/**
 * Forged priority (issue 12, class 4): a tenant gets a priority only from a priority class it may use.
 * A bare number (a Workload's spec.priority without a class, a pod spec's priority) is refused with
 * 403 naming the field, on create, on every kind of patch and on replace; a number next to a class is
 * reset to the class's value; the status subresource cannot carry one in. Admins may still set numbers.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ForgedPriorityTest {
    static final String WORKLOADS = "/apis/kueue.x-k8s.io/v1beta2/namespaces/team-a/workloads";
    static final String MAX = "2147483647";

    @TempDir
    static Path dir;
    SecureManager api;

    @BeforeAll
    void start() throws Exception {
        api = new SecureManager(dir, SecurityOptions.DEFAULT_TENANT_RATE, Optional.empty());
        // Let alice edit her workloads and their status, so that the update paths are reachable at all.
        Reply role = api.send("POST", "/apis/rbac.authorization.k8s.io/v1/namespaces/team-a/roles", SecureManager.ADMIN, "application/yaml",
                "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: workload-editor\nrules:\n"
                        + "- apiGroups: [kueue.x-k8s.io]\n  resources: [workloads, workloads/status]\n  verbs: [update, patch]\n");
        assertThat(role.code()).as(role.body().toString()).isEqualTo(201);
        Reply binding = api.send("POST", "/apis/rbac.authorization.k8s.io/v1/namespaces/team-a/rolebindings", SecureManager.ADMIN,
                "application/yaml", "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata:\n  name: workload-editors\n"
                        + "roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: workload-editor}\n"
                        + "subjects:\n- {apiGroup: rbac.authorization.k8s.io, kind: User, name: alice}\n");
        assertThat(binding.code()).as(binding.body().toString()).isEqualTo(201);
    }

    @AfterAll
    void stop() throws Exception {
        api.close();
    }

    record Forgery(String what, String path, String body, String field) {
        @Override
        public String toString() {
            return what;
        }
    }

    static Stream<Forgery> forgeries() {
        return Stream.of(
                new Forgery("a Workload's bare spec.priority (the reported attack)", WORKLOADS,
                        workload("forged", "  priority: " + MAX + "\n"), "spec.priority"),
                new Forgery("a bare negative spec.priority", WORKLOADS, workload("negative", "  priority: -5\n"), "spec.priority"),
                new Forgery("a bare spec.priority as a string", WORKLOADS, workload("text", "  priority: \"" + MAX + "\"\n"), "spec.priority"),
                new Forgery("a pod set template's priority", WORKLOADS,
                        workload("template", "").replace("        containers:", "        priority: " + MAX + "\n        containers:"),
                        "spec.podSets[0].template.spec.priority"),
                new Forgery("a Job's pod template priority", "/apis/batch/v1/namespaces/team-a/jobs",
                        TenantAuthorizationTest.job("job", "").replace("      restartPolicy: Never", "      restartPolicy: Never\n      priority: " + MAX),
                        "spec.template.spec.priority"),
                new Forgery("a JobSet's pod template priority", "/apis/jobset.x-k8s.io/v1alpha2/namespaces/team-a/jobsets",
                        QuotaOverflowTest.jobSet("jobset", 1, "1").replace("            restartPolicy: Never",
                                "            restartPolicy: Never\n            priority: " + MAX),
                        "spec.replicatedJobs[0].template.spec.template.spec.priority"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("forgeries")
    void aTenantCannotCreateABarePriority(Forgery forgery) throws Exception {
        List<String> before = api.contents();
        Reply reply = api.send("POST", forgery.path(), SecureManager.ALICE, "application/yaml", forgery.body());

        assertThat(reply.code()).as(reply.body().toString()).isEqualTo(403);
        assertThat(fields(reply)).contains(forgery.field());
        assertThat(reply.message()).contains(forgery.field());
        assertThat(api.contents()).isEqualTo(before);
    }

    @Test
    void aNumberNextToAClassIsResetToTheClassValue() throws Exception {
        Reply reply = api.send("POST", WORKLOADS, SecureManager.ALICE, "application/yaml", workload("with-class",
                "  priorityClassRef: {group: kueue.x-k8s.io, kind: WorkloadPriorityClass, name: research}\n  priority: " + MAX + "\n"));

        assertThat(reply.code()).as(reply.body().toString()).isEqualTo(201);
        assertThat(api.get(WORKLOADS + "/with-class", SecureManager.ALICE).body().path("spec").path("priority").asInt()).isEqualTo(100);
    }

    @Test
    void aClassTheTenantMayNotUseIsStillRefused() throws Exception {
        Reply reply = api.send("POST", WORKLOADS, SecureManager.ALICE, "application/yaml", workload("production",
                "  priorityClassRef: {group: kueue.x-k8s.io, kind: WorkloadPriorityClass, name: production}\n  priority: 1000\n"));

        assertThat(reply.code()).as(reply.body().toString()).isEqualTo(403);
        assertThat(fields(reply)).contains("spec.priorityClassRef.name");
    }

    @Test
    void aTenantCannotRaiseThePriorityOfAStoredWorkload() throws Exception {
        assertThat(api.send("POST", WORKLOADS, SecureManager.ALICE, "application/yaml", workload("mine", "  priority: 0\n")).code()).isEqualTo(201);
        String path = WORKLOADS + "/mine";

        Reply merge = api.send("PATCH", path, SecureManager.ALICE, "application/merge-patch+json", "{\"spec\":{\"priority\":" + MAX + "}}");
        Reply json = api.send("PATCH", path, SecureManager.ALICE, "application/json-patch+json",
                "[{\"op\":\"replace\",\"path\":\"/spec/priority\",\"value\":" + MAX + "}]");
        Reply strategic = api.send("PATCH", path, SecureManager.ALICE, "application/strategic-merge-patch+json", "{\"spec\":{\"priority\":" + MAX + "}}");
        JsonNode stored = api.get(path, SecureManager.ALICE).body();
        ((com.fasterxml.jackson.databind.node.ObjectNode) stored.path("spec")).put("priority", Integer.MAX_VALUE);
        // unconditional writes: the scheduler may write the Workload's status between the GET and the PUTs (a 409 then)
        ((com.fasterxml.jackson.databind.node.ObjectNode) stored.path("metadata")).remove("resourceVersion");
        Reply put = api.send("PUT", path, SecureManager.ALICE, "application/json", stored.toString());
        Reply status = api.send("PUT", path + "/status", SecureManager.ALICE, "application/json", stored.toString());

        for (Reply reply : List.of(merge, json, put)) {
            assertThat(reply.code()).as(reply.body().toString()).isEqualTo(403);
            assertThat(fields(reply)).contains("spec.priority");
        }
        assertThat(strategic.code()).as("a Workload is a custom resource: no strategic merge patch").isEqualTo(415);
        assertThat(status.code()).as(status.body().toString()).isIn(200, 403);
        assertThat(api.get(path, SecureManager.ALICE).body().path("spec").path("priority").asInt()).isZero();
    }

    @Test
    void anAdminMaySetABarePriorityAsKueueAllows() throws Exception {
        Reply workload = api.send("POST", WORKLOADS, SecureManager.ADMIN, "application/yaml", workload("urgent", "  priority: 5000\n"));
        Reply job = api.send("POST", "/apis/batch/v1/namespaces/team-a/jobs", SecureManager.ADMIN, "application/yaml",
                TenantAuthorizationTest.job("admin-job", "").replace("      restartPolicy: Never", "      restartPolicy: Never\n      priority: 7"));

        assertThat(workload.code()).as(workload.body().toString()).isEqualTo(201);
        assertThat(api.get(WORKLOADS + "/urgent", SecureManager.ADMIN).body().path("spec").path("priority").asInt()).isEqualTo(5000);
        assertThat(job.code()).as(job.body().toString()).isEqualTo(201);
    }

    private static List<String> fields(Reply reply) {
        List<String> fields = new ArrayList<>();
        for (JsonNode cause : reply.body().path("details").path("causes")) fields.add(cause.path("field").asText());
        return fields;
    }

    static String workload(String name, String specExtra) {
        return QuotaOverflowTest.workload(name, 1, QuotaOverflowTest.container("c", "1")).replace("  queueName: team-queue\n",
                "  queueName: team-queue\n" + specExtra);
    }
}
