package dev.berth.system.rbac;

import dev.berth.virtualcluster.ApiRequest;
import java.util.List;

/**
 * One PolicyRule of a Role or ClusterRole, evaluated as kube-apiserver's RBAC authorizer does: a verb,
 * API group and resource each match exactly or through {@code *}; a subresource request matches
 * {@code resource/subresource} or {@code * /subresource}; resourceNames, when given, must name the
 * object; nonResourceURLs match exactly or by a prefix ending in {@code *}.
 */
record RbacRule(List<String> apiGroups, List<String> resources, List<String> verbs, List<String> resourceNames,
                List<String> nonResourceURLs) {

    static RbacRule resource(List<String> apiGroups, List<String> resources, List<String> verbs, List<String> resourceNames) {
        return new RbacRule(apiGroups, resources, verbs, resourceNames, List.of());
    }

    static RbacRule nonResource(List<String> urls, List<String> verbs) {
        return new RbacRule(List.of(), List.of(), verbs, List.of(), urls);
    }

    boolean grants(ApiRequest request) {
        if (!matches(verbs, request.verb())) return false;
        if (!request.isResourceRequest()) {
            return nonResourceURLs.stream().anyMatch(url -> url.equals(request.nonResourcePath())
                    || url.endsWith("*") && request.nonResourcePath().startsWith(url.substring(0, url.length() - 1)));
        }
        if (!matches(apiGroups, request.apiGroup())) return false;
        if (!resourceMatches(request)) return false;
        return resourceNames.isEmpty() || !request.name().isEmpty() && resourceNames.contains(request.name());
    }

    /** The rule's grants one by one: each (verb, group, resource) it names, with its resourceNames. */
    List<RbacRule> singleGrants() {
        if (apiGroups.isEmpty() && resources.isEmpty()) {
            return verbs.stream().flatMap(v -> nonResourceURLs.stream().map(url -> nonResource(List.of(url), List.of(v)))).toList();
        }
        return verbs.stream().flatMap(v -> apiGroups.stream().flatMap(g -> resources.stream()
                .map(r -> resource(List.of(g), List.of(r), List.of(v), resourceNames)))).toList();
    }

    boolean hasWildcard() {
        return List.of(apiGroups, resources, verbs, nonResourceURLs).stream().anyMatch(field -> field.stream().anyMatch(s -> s.contains("*")));
    }

    private boolean resourceMatches(ApiRequest request) {
        String wanted = request.resourceWithSubresource();
        for (String resource : resources) {
            if (resource.equals("*") || resource.equals(wanted)) return true;
            if (!request.subresource().isEmpty() && resource.equals("*/" + request.subresource())) return true;
        }
        return false;
    }

    private static boolean matches(List<String> allowed, String value) {
        return allowed.contains("*") || allowed.contains(value);
    }

    @Override
    public String toString() {
        String what = nonResourceURLs.isEmpty()
                ? String.join(",", verbs) + " on " + String.join(",", apiGroups.stream().map(g -> g.isEmpty() ? "core" : g).toList())
                        + "/" + String.join(",", resources) + (resourceNames.isEmpty() ? "" : " named " + String.join(",", resourceNames))
                : String.join(",", verbs) + " on " + String.join(",", nonResourceURLs);
        return what;
    }
}
