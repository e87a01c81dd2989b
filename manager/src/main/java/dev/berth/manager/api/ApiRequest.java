package dev.berth.manager.api;

import java.util.Map;

/** One HTTP request as the API sees it, captured on the event loop and handed to the state thread. */
record ApiRequest(String method, String path, String contentType, String accept, Map<String, String> query, byte[] body) {
    ApiRequest {
        query = Map.copyOf(query);
    }

    String param(String name) {
        return query.get(name);
    }

    boolean flag(String name) {
        return "true".equalsIgnoreCase(query.get(name));
    }

    /** {@code dryRun=All}; any other value is refused as Kubernetes does. */
    boolean dryRun() {
        String dryRun = query.get("dryRun");
        if (dryRun == null || dryRun.isEmpty()) return false;
        if (!dryRun.equals("All")) throw ApiException.badRequest("dryRun: Unsupported value: \"" + dryRun + "\": supported values: \"All\"");
        return true;
    }

    /** Whether the client asked for a meta.k8s.io Table rendering. */
    boolean wantsTable() {
        return accept != null && accept.contains("as=Table");
    }
}
