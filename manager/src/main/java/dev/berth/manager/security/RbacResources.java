package dev.berth.manager.security;

import dev.berth.manager.api.ResourceType;
import dev.berth.protocol.RbacApi;
import java.util.List;

/** The rbac.authorization.k8s.io/v1 kinds, scoped as in Kubernetes. */
public final class RbacResources {
    private RbacResources() {}

    public static final ResourceType ROLES = type("roles", "role", RbacApi.ROLE, true);
    public static final ResourceType CLUSTER_ROLES = type("clusterroles", "clusterrole", RbacApi.CLUSTER_ROLE, false);
    public static final ResourceType ROLE_BINDINGS = type("rolebindings", "rolebinding", RbacApi.ROLE_BINDING, true);
    public static final ResourceType CLUSTER_ROLE_BINDINGS = type("clusterrolebindings", "clusterrolebinding", RbacApi.CLUSTER_ROLE_BINDING, false);

    public static List<ResourceType> all() {
        return List.of(ROLES, CLUSTER_ROLES, ROLE_BINDINGS, CLUSTER_ROLE_BINDINGS);
    }

    private static ResourceType type(String plural, String singular, String kind, boolean namespaced) {
        return new ResourceType(RbacApi.GROUP, RbacApi.V1, plural, singular, kind, namespaced, List.of(), false);
    }
}
