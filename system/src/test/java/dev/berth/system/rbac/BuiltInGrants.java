package dev.berth.system.rbac;

import java.util.List;
import java.util.Optional;

/** What every real cluster grants any authenticated user (the default ClusterRoles system:discovery and system:public-info-viewer). */
final class BuiltInGrants {
    static final List<BoundRule> EVERY_AUTHENTICATED_USER = List.of(new BoundRule(
            RbacRule.nonResource(List.of("/api", "/api/*", "/apis", "/apis/*", "/healthz", "/livez", "/readyz", "/version", "/version/",
                    "/openapi", "/openapi/*"), List.of("get")),
            Optional.empty(), "ClusterRole system:discovery (every authenticated user)"));

    private BuiltInGrants() {}
}
