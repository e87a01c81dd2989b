package dev.berth.manager.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.protocol.RbacApi;
import java.util.List;
import org.junit.jupiter.api.Test;

/** RBAC evaluation as Kubernetes does it, one behaviour per test. */
class RbacPolicyTest {
    static final UserInfo ALICE = new UserInfo("alice", "", List.of("team-a"));
    static final PolicyRule SUBMIT = new PolicyRule(List.of("create", "get", "list"), List.of("batch"), List.of("jobs", "jobs/status"), List.of(), List.of());
    static final RbacPolicy POLICY = new RbacPolicy(
            List.of(new RbacRole("", "tenant", List.of(SUBMIT)),
                    new RbacRole("", "use-research", List.of(new PolicyRule(List.of("use"), List.of("kueue.x-k8s.io"),
                            List.of("workloadpriorityclasses"), List.of("research"), List.of())))),
            List.of(new RbacBinding("team-a", "b", RbacApi.CLUSTER_ROLE, "tenant", List.of(new RbacBinding.Subject("Group", "team-a", ""))),
                    new RbacBinding("team-a", "p", RbacApi.CLUSTER_ROLE, "use-research", List.of(new RbacBinding.Subject("User", "alice", "")))));

    @Test
    void aRoleBindingGrantsOnlyInItsNamespace() {
        assertThat(POLICY.allows(ALICE, RequestAttributes.of("POST", "/apis/batch/v1/namespaces/team-a/jobs", false))).isTrue();
        assertThat(POLICY.allows(ALICE, RequestAttributes.of("POST", "/apis/batch/v1/namespaces/team-b/jobs", false))).isFalse();
        assertThat(POLICY.allows(ALICE, RequestAttributes.of("GET", "/apis/batch/v1/jobs", false))).as("list -A").isFalse();
    }

    @Test
    void verbsAndSubresourcesMatchExactly() {
        assertThat(POLICY.allows(ALICE, RequestAttributes.of("GET", "/apis/batch/v1/namespaces/team-a/jobs/j/status", false))).isTrue();
        assertThat(POLICY.allows(ALICE, RequestAttributes.of("DELETE", "/apis/batch/v1/namespaces/team-a/jobs/j", false))).isFalse();
        assertThat(POLICY.allows(ALICE, RequestAttributes.of("GET", "/apis/batch/v1/namespaces/team-a/jobs", true))).as("watch").isFalse();
    }

    @Test
    void resourceNamesLimitUse() {
        assertThat(POLICY.allows(ALICE, RequestAttributes.resource("use", "kueue.x-k8s.io", "workloadpriorityclasses", "team-a", "research"))).isTrue();
        assertThat(POLICY.allows(ALICE, RequestAttributes.resource("use", "kueue.x-k8s.io", "workloadpriorityclasses", "team-a", "production"))).isFalse();
    }

    @Test
    void mastersAreClusterAdminsAndEveryoneMayDiscover() {
        UserInfo admin = new UserInfo("root", "", List.of(RbacApi.MASTERS_GROUP));
        assertThat(POLICY.allows(admin, RequestAttributes.of("DELETE", "/apis/kueue.x-k8s.io/v1beta2/clusterqueues/cq", false))).isTrue();
        assertThat(POLICY.allows(ALICE, RequestAttributes.of("GET", "/apis", false))).isTrue();
        assertThat(POLICY.allows(ALICE, RequestAttributes.of("GET", "/apis/kueue.x-k8s.io/v1beta2", false))).isTrue();
        assertThat(POLICY.allows(ALICE, RequestAttributes.of("PATCH", "/api/v1/namespaces/team-a", false))).isFalse();
    }

    @Test
    void aServiceAccountSubjectMatchesItsUserName() {
        RbacPolicy policy = new RbacPolicy(List.of(new RbacRole("", "tenant", List.of(SUBMIT))),
                List.of(new RbacBinding("ci", "b", RbacApi.CLUSTER_ROLE, "tenant", List.of(new RbacBinding.Subject("ServiceAccount", "bot", "ci")))));
        UserInfo bot = new UserInfo("system:serviceaccount:ci:bot", "", List.of());
        assertThat(policy.allows(bot, RequestAttributes.of("GET", "/apis/batch/v1/namespaces/ci/jobs", false))).isTrue();
    }

    @Test
    void tokenFilesReadKubeApiserverCsv() {
        TokenFile tokens = TokenFile.parse("# comment\nt1,alice,1,\"team-a,team-x\"\nt2,bob,2\n");
        assertThat(tokens.authenticate("t1")).get().extracting(UserInfo::groups).asList().contains("team-a", "team-x", "system:authenticated");
        assertThat(tokens.authenticate("t2")).get().extracting(UserInfo::name).isEqualTo("bob");
        assertThat(tokens.authenticate("t3")).isEmpty();
    }
}
