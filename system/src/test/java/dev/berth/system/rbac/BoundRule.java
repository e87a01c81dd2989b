package dev.berth.system.rbac;

import dev.berth.virtualcluster.ApiRequest;
import java.util.Optional;

/**
 * A rule as it applies to a subject through one binding: everywhere (a ClusterRoleBinding), or in one
 * namespace only (a RoleBinding, to a Role or a ClusterRole). {@code source} names the role and binding.
 */
record BoundRule(RbacRule rule, Optional<String> namespace, String source) {

    boolean grants(ApiRequest request) {
        return namespace.map(ns -> ns.equals(request.namespace())).orElse(true) && rule.grants(request);
    }

    BoundRule with(RbacRule single) {
        return new BoundRule(single, namespace, source);
    }

    boolean clusterWide() {
        return namespace.isEmpty();
    }

    @Override
    public String toString() {
        return source + " grants " + rule + namespace.map(ns -> " in namespace " + ns).orElse(" cluster-wide");
    }
}
