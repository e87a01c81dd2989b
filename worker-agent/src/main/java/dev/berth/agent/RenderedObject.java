package dev.berth.agent;

import java.util.Map;

/** An object the agent creates for an attempt, ready to send: its API coordinates and its body. */
public record RenderedObject(String apiVersion, String kind, String plural, String name, Map<String, Object> body) {
    public String group() {
        int slash = apiVersion.indexOf('/');
        return slash < 0 ? "" : apiVersion.substring(0, slash);
    }

    public String version() {
        int slash = apiVersion.indexOf('/');
        return slash < 0 ? apiVersion : apiVersion.substring(slash + 1);
    }
}
