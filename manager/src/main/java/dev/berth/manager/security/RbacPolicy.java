package dev.berth.manager.security;

import dev.berth.protocol.AccessReviewApi;
import dev.berth.protocol.RbacApi;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An immutable snapshot of the stored RBAC objects plus the built-in ones, evaluated as Kubernetes
 * does: a request is allowed when some rule of a role bound to the caller allows it. ClusterRoleBindings
 * apply everywhere; RoleBindings only to resource requests in their own namespace. Deny by default.
 */
public final class RbacPolicy {
    private static final String DISCOVERY = "system:discovery";
    /** Where a signed-in caller mints a dashboard sign-in link (security.edge.DashboardSignInRoutes). */
    public static final String DASHBOARD_SIGN_IN_LINKS = "/dashboard/sign-in-links";
    private final Map<String, RbacRole> roles = new HashMap<>();
    private final List<RbacBinding> bindings;

    public RbacPolicy(List<RbacRole> storedRoles, List<RbacBinding> storedBindings) {
        List<RbacRole> all = new ArrayList<>(builtInRoles());
        all.addAll(storedRoles);
        for (RbacRole role : all) roles.putIfAbsent(key(role.namespace(), role.name()), role);
        List<RbacBinding> allBindings = new ArrayList<>(builtInBindings());
        allBindings.addAll(storedBindings);
        this.bindings = List.copyOf(allBindings);
    }

    public static RbacPolicy builtInOnly() {
        return new RbacPolicy(List.of(), List.of());
    }

    public boolean allows(UserInfo user, RequestAttributes request) {
        for (RbacBinding binding : bindings) {
            boolean clusterBinding = binding.namespace().isEmpty();
            if (!clusterBinding && (!request.resourceRequest() || !binding.namespace().equals(request.namespace()))) continue;
            if (!binding.appliesTo(user)) continue;
            RbacRole role = roles.get(key(RbacApi.CLUSTER_ROLE.equals(binding.roleKind()) ? "" : binding.namespace(), binding.roleName()));
            if (role == null) continue;
            for (PolicyRule rule : role.rules()) if (rule.allows(request)) return true;
        }
        return false;
    }

    /**
     * The rules that apply to a caller in a namespace, as a SelfSubjectRulesReview lists them: every rule
     * of a role bound cluster-wide, and the resource rules of roles bound in that namespace (a RoleBinding
     * grants no non-resource URLs).
     */
    public List<PolicyRule> rulesFor(UserInfo user, String namespace) {
        List<PolicyRule> rules = new ArrayList<>();
        for (RbacBinding binding : bindings) {
            boolean clusterBinding = binding.namespace().isEmpty();
            if (!clusterBinding && (namespace.isEmpty() || !binding.namespace().equals(namespace))) continue;
            if (!binding.appliesTo(user)) continue;
            RbacRole role = roles.get(key(RbacApi.CLUSTER_ROLE.equals(binding.roleKind()) ? "" : binding.namespace(), binding.roleName()));
            if (role == null) continue;
            for (PolicyRule rule : role.rules()) if (clusterBinding || !rule.resources().isEmpty()) rules.add(rule);
        }
        return rules;
    }

    /** Kubernetes' wording for a refusal; names only what the caller asked for. */
    public static String forbiddenMessage(UserInfo user, RequestAttributes request) {
        if (!request.resourceRequest()) {
            return "forbidden: User \"" + user.name() + "\" cannot " + request.verb() + " path \"" + request.path() + "\"";
        }
        String what = request.apiGroup().isEmpty() ? request.resource() : request.resource() + "." + request.apiGroup();
        StringBuilder message = new StringBuilder(what);
        if (!request.name().isEmpty()) message.append(" \"").append(request.name()).append('"');
        message.append(" is forbidden: User \"").append(user.name()).append("\" cannot ").append(request.verb())
                .append(" resource \"").append(request.resourceWithSubresource()).append("\" in API group \"")
                .append(request.apiGroup()).append('"');
        message.append(request.namespace().isEmpty() ? " at the cluster scope" : " in the namespace \"" + request.namespace() + "\"");
        return message.toString();
    }

    private static List<RbacRole> builtInRoles() {
        PolicyRule everything = new PolicyRule(List.of("*"), List.of("*"), List.of("*"), List.of(), List.of());
        PolicyRule everyPath = new PolicyRule(List.of("*"), List.of(), List.of(), List.of(), List.of("*"));
        PolicyRule discovery = new PolicyRule(List.of("get"), List.of(), List.of(), List.of(),
                List.of("/api", "/api/*", "/apis", "/apis/*", "/version", "/version/", "/openapi/*", "/healthz", "/readyz", "/livez"));
        PolicyRule accessReviews = new PolicyRule(List.of("create"), List.of(AccessReviewApi.AUTHORIZATION_GROUP),
                List.of(AccessReviewApi.SELF_SUBJECT_ACCESS_REVIEWS, AccessReviewApi.SELF_SUBJECT_RULES_REVIEWS), List.of(), List.of());
        PolicyRule selfReview = new PolicyRule(List.of("create"), List.of(AccessReviewApi.AUTHENTICATION_GROUP),
                List.of(AccessReviewApi.SELF_SUBJECT_REVIEWS), List.of(), List.of());
        // Anyone signed in may mint a dashboard sign-in link for their own token: the session it opens reads no more than the token.
        PolicyRule dashboardLink = new PolicyRule(List.of("post"), List.of(), List.of(), List.of(), List.of(DASHBOARD_SIGN_IN_LINKS));
        return List.of(new RbacRole("", RbacApi.CLUSTER_ADMIN, List.of(everything, everyPath)),
                new RbacRole("", DISCOVERY, List.of(discovery)),
                new RbacRole("", AccessReviewApi.BASIC_USER_ROLE, List.of(accessReviews, selfReview, dashboardLink)));
    }

    private static List<RbacBinding> builtInBindings() {
        return List.of(
                new RbacBinding("", RbacApi.CLUSTER_ADMIN, RbacApi.CLUSTER_ROLE, RbacApi.CLUSTER_ADMIN,
                        List.of(new RbacBinding.Subject(RbacApi.SUBJECT_GROUP, RbacApi.MASTERS_GROUP, ""))),
                new RbacBinding("", DISCOVERY, RbacApi.CLUSTER_ROLE, DISCOVERY,
                        List.of(new RbacBinding.Subject(RbacApi.SUBJECT_GROUP, RbacApi.AUTHENTICATED_GROUP, ""))),
                new RbacBinding("", AccessReviewApi.BASIC_USER_ROLE, RbacApi.CLUSTER_ROLE, AccessReviewApi.BASIC_USER_ROLE,
                        List.of(new RbacBinding.Subject(RbacApi.SUBJECT_GROUP, RbacApi.AUTHENTICATED_GROUP, ""))));
    }

    private static String key(String namespace, String name) {
        return namespace + "/" + name;
    }
}
