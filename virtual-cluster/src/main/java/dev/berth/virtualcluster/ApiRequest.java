package dev.berth.virtualcluster;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * One API request as Kubernetes RBAC sees it: who made it, and the request attributes an authorizer
 * decides on (verb, API group, resource, subresource, namespace, name; or a non-resource path).
 * Derived from the HTTP method and path exactly as kube-apiserver's request-info resolver does for
 * the shapes clients send: GET is get, list or watch; POST create; PUT update; PATCH patch; DELETE
 * delete or deletecollection. Written one per line, tab-separated, by {@link RequestRecorder}.
 */
public record ApiRequest(String user, String verb, String apiGroup, String resource, String subresource,
                         String namespace, String name, String nonResourcePath) {
    private static final java.util.Set<String> NAMESPACE_SUBRESOURCES = java.util.Set.of("status", "finalize");

    public boolean isResourceRequest() {
        return nonResourcePath.isEmpty();
    }

    /** The resource as RBAC rules name it: {@code jobs} or {@code jobs/status}. */
    public String resourceWithSubresource() {
        return subresource.isEmpty() ? resource : resource + "/" + subresource;
    }

    /** The attributes of a request to {@code path} (with its query) by {@code method}, made by {@code user}. */
    public static ApiRequest of(String user, String method, String path) {
        int q = path.indexOf('?');
        String query = q < 0 ? "" : path.substring(q + 1);
        String bare = q < 0 ? path : path.substring(0, q);
        List<String> segments = Arrays.stream(bare.split("/")).filter(s -> !s.isEmpty()).map(ApiRequest::decode).toList();
        int start;
        String group;
        if (segments.size() >= 2 && segments.get(0).equals("api")) {
            group = "";
            start = 2;
        } else if (segments.size() >= 3 && segments.get(0).equals("apis")) {
            group = segments.get(1);
            start = 3;
        } else {
            return nonResource(user, method, bare);
        }
        List<String> rest = segments.subList(start, segments.size());
        if (rest.isEmpty()) return nonResource(user, method, bare);
        String namespace = "";
        // namespaces/{ns}/{resource}/...; but namespaces/{name} alone (or with a subresource) is the Namespace itself.
        if (rest.get(0).equals("namespaces") && rest.size() >= 3 && !NAMESPACE_SUBRESOURCES.contains(rest.get(2))) {
            namespace = rest.get(1);
            rest = rest.subList(2, rest.size());
        }
        String resource = rest.get(0);
        String name = rest.size() > 1 ? rest.get(1) : "";
        String subresource = rest.size() > 2 ? String.join("/", rest.subList(2, rest.size())) : "";
        if (resource.equals("namespaces") && namespace.isEmpty() && !name.isEmpty()) namespace = name;
        boolean watch = queryValue(query, "watch").map(v -> v.equals("true") || v.equals("1")).orElse(false);
        String verb = switch (method.toUpperCase()) {
            case "GET", "HEAD" -> name.isEmpty() ? (watch ? "watch" : "list") : "get";
            case "POST" -> "create";
            case "PUT" -> "update";
            case "PATCH" -> "patch";
            case "DELETE" -> name.isEmpty() ? "deletecollection" : "delete";
            default -> method.toLowerCase();
        };
        if (name.isEmpty() && (verb.equals("list") || verb.equals("watch"))) {
            // kube-apiserver authorizes a list or watch narrowed to one name by that name.
            name = queryValue(query, "fieldSelector").flatMap(ApiRequest::singleName).orElse("");
        }
        if (verb.equals("create")) name = "";
        return new ApiRequest(user, verb, group, resource, subresource, namespace, name, "");
    }

    private static ApiRequest nonResource(String user, String method, String path) {
        return new ApiRequest(user, method.toLowerCase(), "", "", "", "", "", path.isEmpty() ? "/" : path);
    }

    private static java.util.Optional<String> queryValue(String query, String key) {
        for (String pair : query.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0 && decode(pair.substring(0, eq)).equals(key)) return java.util.Optional.of(decode(pair.substring(eq + 1)));
        }
        return java.util.Optional.empty();
    }

    private static java.util.Optional<String> singleName(String fieldSelector) {
        String prefix = "metadata.name=";
        return fieldSelector.startsWith(prefix) && !fieldSelector.contains(",")
                ? java.util.Optional.of(fieldSelector.substring(prefix.length())) : java.util.Optional.empty();
    }

    private static String decode(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }

    /** One line of the request log. */
    public String toLine() {
        return String.join("\t", user, verb, apiGroup, resource, subresource, namespace, name, nonResourcePath);
    }

    public static ApiRequest fromLine(String line) {
        String[] f = line.split("\t", -1);
        if (f.length != 8) throw new IllegalArgumentException("not a request log line: " + line);
        return new ApiRequest(f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7]);
    }

    @Override
    public String toString() {
        if (!isResourceRequest()) return user + " " + verb + " " + nonResourcePath;
        return user + " " + verb + " " + (apiGroup.isEmpty() ? "core" : apiGroup) + "/" + resourceWithSubresource()
                + (namespace.isEmpty() ? "" : " in " + namespace) + (name.isEmpty() ? "" : " name " + name);
    }
}
