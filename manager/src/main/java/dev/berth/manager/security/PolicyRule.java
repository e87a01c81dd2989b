package dev.berth.manager.security;

import java.util.List;

/** One rule of a Role or ClusterRole: verbs on apiGroups/resources (optionally resourceNames), or on nonResourceURLs. */
public record PolicyRule(List<String> verbs, List<String> apiGroups, List<String> resources,
                         List<String> resourceNames, List<String> nonResourceURLs) {
    private static final String ALL = "*";

    public PolicyRule {
        verbs = List.copyOf(verbs);
        apiGroups = List.copyOf(apiGroups);
        resources = List.copyOf(resources);
        resourceNames = List.copyOf(resourceNames);
        nonResourceURLs = List.copyOf(nonResourceURLs);
    }

    public boolean allows(RequestAttributes request) {
        if (!verbs.contains(ALL) && !verbs.contains(request.verb())) return false;
        if (!request.resourceRequest()) return nonResourceURLs.stream().anyMatch(url -> urlMatches(url, request.path()));
        if (!apiGroups.contains(ALL) && !apiGroups.contains(request.apiGroup())) return false;
        if (!resourceMatches(request)) return false;
        return resourceNames.isEmpty() || (!request.name().isEmpty() && resourceNames.contains(request.name()));
    }

    private boolean resourceMatches(RequestAttributes request) {
        String combined = request.resourceWithSubresource();
        for (String resource : resources) {
            if (resource.equals(ALL) || resource.equals(combined)) return true;
            if (!request.subresource().isEmpty() && resource.equals("*/" + request.subresource())) return true;
        }
        return false;
    }

    private static boolean urlMatches(String rule, String path) {
        if (rule.equals(ALL)) return true;
        if (rule.endsWith("*")) return path.startsWith(rule.substring(0, rule.length() - 1));
        return rule.equals(path);
    }
}
