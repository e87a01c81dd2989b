package dev.berth.manager.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/** The answer to one request: status code, body, client warnings and the object it concerned (for the write log). */
record ApiReply(int code, ObjectNode body, List<String> warnings, ResourcePath target) {
    ApiReply about(ResourcePath path) {
        return new ApiReply(code, body, warnings, path);
    }

    ApiReply withBody(ObjectNode replaced) {
        return new ApiReply(code, replaced, warnings, target);
    }

    /** The same reply with warnings put before its own. */
    ApiReply warnedFirst(java.util.List<String> first) {
        if (first.isEmpty()) return this;
        java.util.List<String> all = new java.util.ArrayList<>(first);
        all.addAll(warnings);
        return new ApiReply(code, body, java.util.List.copyOf(all), target);
    }

    static ApiReply ok(int code, ObjectNode body) {
        return new ApiReply(code, body, List.of(), null);
    }

    static ApiReply ok(int code, Outcome outcome) {
        return new ApiReply(code, outcome.object(), outcome.warnings(), null);
    }

    static ApiReply failure(ApiException e) {
        return new ApiReply(e.code(), StatusBody.of(e), List.of(), null);
    }
}
