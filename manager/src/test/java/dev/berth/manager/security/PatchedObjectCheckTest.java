package dev.berth.manager.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.security.SecureManager.Reply;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Object limits and priority-class use are checked on the object a patch results in, whatever the
 * patch type: a tenant allowed to patch its Workloads still cannot raise their priority, and a patch
 * that makes an object too large is refused. Nothing is stored.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PatchedObjectCheckTest {
    static final String WORKLOADS = "/apis/kueue.x-k8s.io/v1beta2/namespaces/team-a/workloads";
    static final String YAML = "application/yaml";

    @TempDir
    static Path dir;
    SecureManager api;

    @BeforeAll
    void start() throws Exception {
        api = new SecureManager(dir, SecurityOptions.DEFAULT_TENANT_RATE, Optional.empty());
        Reply role = api.send("POST", "/apis/rbac.authorization.k8s.io/v1/clusterroles", SecureManager.ADMIN, YAML,
                "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: workload-patcher}\n"
                        + "rules: [{apiGroups: [kueue.x-k8s.io], resources: [workloads], verbs: [patch, update]}]\n");
        assertThat(role.code()).as(role.body().toString()).isEqualTo(201);
        Reply binding = api.send("POST", "/apis/rbac.authorization.k8s.io/v1/namespaces/team-a/rolebindings", SecureManager.ADMIN, YAML,
                "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: alice-patches, namespace: team-a}\n"
                        + "roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: workload-patcher}\n"
                        + "subjects: [{kind: User, name: alice}]\n");
        assertThat(binding.code()).as(binding.body().toString()).isEqualTo(201);
        Reply workload = api.send("POST", WORKLOADS, SecureManager.ALICE, YAML, """
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: Workload
                metadata:
                  name: experiment
                  labels: {kueue.x-k8s.io/priority-class: research}
                spec:
                  queueName: team-a-queue
                  podSets:
                  - name: main
                    count: 1
                    template:
                      spec:
                        containers:
                        - name: c
                          image: agnhost
                          resources: {requests: {cpu: 1}}
                """);
        assertThat(workload.code()).as(workload.body().toString()).isEqualTo(201);
    }

    @AfterAll
    void stop() throws Exception {
        api.close();
    }

    @Test
    void aJsonPatchCannotRaiseAWorkloadsPriority() throws Exception {
        List<String> before = api.contents();
        Reply patched = api.send("PATCH", WORKLOADS + "/experiment", SecureManager.ALICE, "application/json-patch+json",
                "[{\"op\":\"replace\",\"path\":\"/metadata/labels/kueue.x-k8s.io~1priority-class\",\"value\":\"production\"}]");
        assertThat(patched.code()).as(patched.body().toString()).isEqualTo(403);
        assertThat(patched.message()).contains("cannot use priority class \"production\"");
        assertThat(patched.body().path("details").path("causes").get(0).path("field").asText())
                .isEqualTo("metadata.labels[kueue.x-k8s.io/priority-class]");
        assertThat(api.contents()).isEqualTo(before);
    }

    @Test
    void aMergePatchCannotRaiseAWorkloadsPriority() throws Exception {
        List<String> before = api.contents();
        Reply patched = api.send("PATCH", WORKLOADS + "/experiment", SecureManager.ALICE, "application/merge-patch+json",
                "{\"metadata\":{\"labels\":{\"kueue.x-k8s.io/priority-class\":\"production\"}}}");
        assertThat(patched.code()).as(patched.body().toString()).isEqualTo(403);
        assertThat(patched.message()).contains("cannot use priority class \"production\"");
        assertThat(api.contents()).isEqualTo(before);
    }

    @Test
    void aPatchWithinTheTenantsPrioritiesIsAccepted() throws Exception {
        Reply patched = api.send("PATCH", WORKLOADS + "/experiment", SecureManager.ALICE, "application/json-patch+json",
                "[{\"op\":\"add\",\"path\":\"/metadata/annotations\",\"value\":{\"team\":\"a\"}}]");
        assertThat(patched.code()).as(patched.body().toString()).isEqualTo(200);
    }

    @Test
    void aJsonPatchMakingAnObjectTooLargeIsRefused() throws Exception {
        List<String> before = api.contents();
        String huge = "x".repeat(ObjectLimits.MAX_OBJECT_BYTES);
        Reply patched = api.send("PATCH", "/apis/kueue.x-k8s.io/v1beta2/clusterqueues/team-a-cq", SecureManager.ADMIN,
                "application/json-patch+json", "[{\"op\":\"add\",\"path\":\"/metadata/annotations\",\"value\":{\"note\":\"" + huge + "\"}}]");
        assertThat(patched.code()).as(patched.body().toString()).isEqualTo(413);
        assertThat(patched.message()).contains("larger than the limit");
        assertThat(api.contents()).isEqualTo(before);
    }
}
