package dev.berth.manager.api;

import java.util.ArrayList;
import java.util.List;

/**
 * A request path resolved against the registry: {@code /api/v1/...} for the core group and
 * {@code /apis/{group}/{version}/...} for the others, with or without {@code namespaces/{ns}/},
 * optionally naming an object and its {@code status} subresource.
 */
record ApiRoute(ResourcePath path, boolean status, boolean scale) {
    ApiRoute(ResourcePath path, boolean status) {
        this(path, status, false);
    }

    boolean collection() {
        return path.name() == null;
    }

    /** @throws ApiException 404 when the path names nothing this server serves */
    static ApiRoute resolve(String requestPath, ResourceRegistry registry) {
        List<String> segments = new ArrayList<>();
        for (String segment : requestPath.split("/")) {
            if (!segment.isEmpty()) segments.add(segment);
        }
        String group;
        String version;
        List<String> rest;
        if (segments.size() >= 2 && segments.get(0).equals("api")) {
            group = "";
            version = segments.get(1);
            rest = segments.subList(2, segments.size());
        } else if (segments.size() >= 3 && segments.get(0).equals("apis")) {
            group = segments.get(1);
            version = segments.get(2);
            rest = segments.subList(3, segments.size());
        } else {
            throw ApiException.noSuchResource();
        }
        boolean namespacedForm = rest.size() >= 3 && rest.get(0).equals("namespaces")
                && !(rest.size() == 3 && rest.get(2).equals("status"));
        String namespace = namespacedForm ? rest.get(1) : null;
        List<String> resource = namespacedForm ? rest.subList(2, rest.size()) : rest;
        if (resource.isEmpty() || resource.size() > 3) throw ApiException.noSuchResource();

        ResourceType type = registry.byPlural(group, resource.get(0))
                .filter(t -> registry.serves(t, version))
                .orElseThrow(ApiException::noSuchResource);
        String name = resource.size() > 1 ? resource.get(1) : null;
        boolean scale = resource.size() == 3 && resource.get(2).equals("scale") && ScaleSubresource.scalable(type);
        boolean status = resource.size() == 3 && !scale;
        if (status && (!resource.get(2).equals("status") || !type.hasStatus())) throw ApiException.noSuchResource();
        if (namespacedForm && !type.namespaced()) throw ApiException.noSuchResource();
        if (!namespacedForm && type.namespaced() && name != null) throw ApiException.noSuchResource();
        if (!type.namespaced()) namespace = "";
        return new ApiRoute(new ResourcePath(type, version, namespace, name), status, scale);
    }
}
