package dev.berth.system.rbac;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.virtualcluster.ApiRequest;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The contract's RBAC evaluation agrees with kube-apiserver's on the shapes that matter, one assertion per behaviour. */
class RbacRuleTest {
    private static ApiRequest request(String method, String path) {
        return ApiRequest.of("berth-agent", method, path);
    }

    private static RbacRule rule(List<String> groups, List<String> resources, List<String> verbs, List<String> names) {
        return RbacRule.resource(groups, resources, verbs, names);
    }

    @Test
    void aRuleGrantsItsVerbGroupAndResourceOnly() {
        RbacRule jobs = rule(List.of("batch"), List.of("jobs"), List.of("get", "list"), List.of());
        assertThat(jobs.grants(request("GET", "/apis/batch/v1/namespaces/a/jobs/j"))).isTrue();
        assertThat(jobs.grants(request("GET", "/apis/batch/v1/jobs"))).isTrue();
        assertThat(jobs.grants(request("DELETE", "/apis/batch/v1/namespaces/a/jobs/j"))).as("verb").isFalse();
        assertThat(jobs.grants(request("GET", "/apis/jobset.x-k8s.io/v1alpha2/namespaces/a/jobs/j"))).as("group").isFalse();
        assertThat(jobs.grants(request("GET", "/apis/batch/v1/namespaces/a/cronjobs/j"))).as("resource").isFalse();
    }

    @Test
    void aSubresourceNeedsItsOwnGrant() {
        RbacRule main = rule(List.of("berth.dev"), List.of("remoteworkloads"), List.of("update"), List.of());
        RbacRule status = rule(List.of("berth.dev"), List.of("remoteworkloads/status"), List.of("update"), List.of());
        RbacRule anyStatus = rule(List.of("berth.dev"), List.of("*/status"), List.of("update"), List.of());
        ApiRequest statusUpdate = request("PUT", "/apis/berth.dev/v1alpha1/namespaces/a/remoteworkloads/rw/status");
        assertThat(main.grants(statusUpdate)).isFalse();
        assertThat(status.grants(statusUpdate)).isTrue();
        assertThat(anyStatus.grants(statusUpdate)).isTrue();
        assertThat(status.grants(request("PUT", "/apis/berth.dev/v1alpha1/namespaces/a/remoteworkloads/rw"))).isFalse();
    }

    @Test
    void wildcardsMatchAnything() {
        RbacRule all = rule(List.of("*"), List.of("*"), List.of("*"), List.of());
        assertThat(all.grants(request("DELETE", "/api/v1/namespaces/a/pods"))).isTrue();
        assertThat(all.hasWildcard()).isTrue();
    }

    @Test
    void resourceNamesLimitToNamedObjectsAndNeverGrantCreateOrUnnamedLists() {
        RbacRule lease = rule(List.of("coordination.k8s.io"), List.of("leases"), List.of("get", "create", "list"), List.of("berth-agent"));
        assertThat(lease.grants(request("GET", "/apis/coordination.k8s.io/v1/namespaces/berth-system/leases/berth-agent"))).isTrue();
        assertThat(lease.grants(request("GET", "/apis/coordination.k8s.io/v1/namespaces/berth-system/leases/other"))).isFalse();
        assertThat(lease.grants(request("POST", "/apis/coordination.k8s.io/v1/namespaces/berth-system/leases"))).isFalse();
        assertThat(lease.grants(request("GET", "/apis/coordination.k8s.io/v1/namespaces/berth-system/leases"))).isFalse();
        assertThat(lease.grants(request("GET",
                "/apis/coordination.k8s.io/v1/namespaces/berth-system/leases?fieldSelector=metadata.name%3Dberth-agent"))).isTrue();
    }

    @Test
    void deletingByLabelIsDeletecollectionNotDelete() {
        RbacRule delete = rule(List.of(""), List.of("pods"), List.of("delete"), List.of());
        assertThat(delete.grants(request("DELETE", "/api/v1/namespaces/a/pods?labelSelector=x%3Dy"))).isFalse();
        assertThat(delete.grants(request("DELETE", "/api/v1/namespaces/a/pods/p"))).isTrue();
    }

    @Test
    void aRoleBindingGrantsInItsNamespaceOnly() {
        RbacRule configMaps = rule(List.of(""), List.of("configmaps"), List.of("get"), List.of());
        BoundRule inSystem = new BoundRule(configMaps, Optional.of("berth-system"), "Role x");
        BoundRule everywhere = new BoundRule(configMaps, Optional.empty(), "ClusterRole x");
        ApiRequest elsewhere = request("GET", "/api/v1/namespaces/team-a/configmaps/c");
        assertThat(inSystem.grants(request("GET", "/api/v1/namespaces/berth-system/configmaps/c"))).isTrue();
        assertThat(inSystem.grants(elsewhere)).isFalse();
        assertThat(everywhere.grants(elsewhere)).isTrue();
        BoundRule namespaces = new BoundRule(rule(List.of(""), List.of("namespaces"), List.of("get"), List.of()), Optional.of("berth-system"), "Role y");
        assertThat(namespaces.grants(request("GET", "/api/v1/namespaces/team-a"))).as("a cluster-scoped object outside the binding").isFalse();
    }

    @Test
    void discoveryIsGrantedToEveryAuthenticatedUserButNothingElseIs() {
        assertThat(BuiltInGrants.EVERY_AUTHENTICATED_USER).anyMatch(r -> r.grants(request("GET", "/apis/berth.dev")));
        assertThat(BuiltInGrants.EVERY_AUTHENTICATED_USER).anyMatch(r -> r.grants(request("GET", "/version")));
        assertThat(BuiltInGrants.EVERY_AUTHENTICATED_USER).noneMatch(r -> r.grants(request("GET", "/api/v1/namespaces/a")));
        assertThat(BuiltInGrants.EVERY_AUTHENTICATED_USER).noneMatch(r -> r.grants(request("GET", "/metrics")));
    }

    @Test
    void singleGrantsSplitARuleIntoEachVerbGroupAndResource() {
        RbacRule rule = rule(List.of("batch", "jobset.x-k8s.io"), List.of("jobs"), List.of("get", "delete"), List.of("n"));
        assertThat(rule.singleGrants()).hasSize(4).allMatch(g -> g.verbs().size() == 1 && g.apiGroups().size() == 1
                && g.resources().size() == 1 && g.resourceNames().equals(List.of("n")));
    }
}
