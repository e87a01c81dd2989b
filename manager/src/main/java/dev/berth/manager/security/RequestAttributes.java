package dev.berth.manager.security;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What a request does, as Kubernetes authorizes it: a verb on a resource (group, resource,
 * subresource, namespace, name) or on a non-resource URL. namespace is "" for cluster-scoped
 * requests and for lists across all namespaces.
 */
public record RequestAttributes(boolean resourceRequest, String verb, String apiGroup, String resource,
                                String subresource, String namespace, String name, String path) {
    private static final Set<String> NAMESPACE_SUBRESOURCES = Set.of("status", "finalize");

    public String resourceWithSubresource() {
        return subresource.isEmpty() ? resource : resource + "/" + subresource;
    }

    /** A resource request for a verb, e.g. to ask whether a caller may "use" a priority class. */
    public static RequestAttributes resource(String verb, String group, String resource, String namespace, String name) {
        return new RequestAttributes(true, verb, group, resource, "", namespace, name, "");
    }

    /** Parses a request as kube-apiserver's RequestInfoFactory does. */
    public static RequestAttributes of(String method, String path, boolean watchParam) {
        List<String> parts = new ArrayList<>();
        for (String part : path.split("/")) if (!part.isEmpty()) parts.add(part);
        String httpVerb = method.toUpperCase(Locale.ROOT);
        int prefix;
        String group;
        if (parts.size() >= 2 && parts.get(0).equals("api")) {
            prefix = 2;
            group = "";
        } else if (parts.size() >= 3 && parts.get(0).equals("apis")) {
            prefix = 3;
            group = parts.get(1);
        } else {
            return nonResource(httpVerb, path);
        }
        List<String> rest = parts.subList(prefix, parts.size());
        if (rest.isEmpty()) return nonResource(httpVerb, path);
        boolean watch = watchParam;
        if (rest.get(0).equals("watch")) {
            watch = true;
            rest = rest.subList(1, rest.size());
            if (rest.isEmpty()) return nonResource(httpVerb, path);
        }
        String namespace = "";
        if (rest.get(0).equals("namespaces") && rest.size() > 1) {
            namespace = rest.get(1);
            if (rest.size() > 2 && !NAMESPACE_SUBRESOURCES.contains(rest.get(2))) rest = rest.subList(2, rest.size());
        }
        String resource = rest.get(0);
        String name = rest.size() > 1 ? rest.get(1) : "";
        String subresource = rest.size() > 2 ? String.join("/", rest.subList(2, rest.size())) : "";
        return new RequestAttributes(true, verb(httpVerb, name.isEmpty(), watch), group, resource, subresource, namespace, name, path);
    }

    private static String verb(String httpVerb, boolean collection, boolean watch) {
        return switch (httpVerb) {
            case "POST" -> "create";
            case "PUT" -> "update";
            case "PATCH" -> "patch";
            case "DELETE" -> collection ? "deletecollection" : "delete";
            case "GET", "HEAD" -> watch ? "watch" : collection ? "list" : "get";
            default -> httpVerb.toLowerCase(Locale.ROOT);
        };
    }

    private static RequestAttributes nonResource(String httpVerb, String path) {
        String verb = switch (httpVerb) {
            case "GET", "HEAD" -> "get";
            case "POST" -> "post";
            case "PUT" -> "put";
            case "PATCH" -> "patch";
            case "DELETE" -> "delete";
            default -> httpVerb.toLowerCase(Locale.ROOT);
        };
        return new RequestAttributes(false, verb, "", "", "", "", "", path);
    }
}
