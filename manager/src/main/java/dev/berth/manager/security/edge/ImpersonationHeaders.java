package dev.berth.manager.security.edge;

import dev.berth.manager.security.Impersonation;
import dev.berth.protocol.AccessReviewApi;
import io.vertx.core.MultiMap;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads kube-apiserver's Impersonate-* headers off a request. They stay on the request (unlike in kube):
 * a follower replica forwards the caller's request as it came, and the leader decides again.
 */
final class ImpersonationHeaders {
    private ImpersonationHeaders() {}

    static Impersonation.Request read(MultiMap headers) {
        String user = headers.get(AccessReviewApi.IMPERSONATE_USER);
        String uid = headers.get(AccessReviewApi.IMPERSONATE_UID);
        Map<String, List<String>> extra = new LinkedHashMap<>();
        for (String name : headers.names()) {
            if (!name.regionMatches(true, 0, AccessReviewApi.IMPERSONATE_EXTRA_PREFIX, 0, AccessReviewApi.IMPERSONATE_EXTRA_PREFIX.length())) continue;
            String key = extraKey(name.substring(AccessReviewApi.IMPERSONATE_EXTRA_PREFIX.length()));
            extra.computeIfAbsent(key, k -> new ArrayList<>()).addAll(headers.getAll(name));
        }
        return new Impersonation.Request(user == null ? "" : user, headers.getAll(AccessReviewApi.IMPERSONATE_GROUP),
                uid == null ? "" : uid, extra);
    }

    /** The extra key as kube reads it: lower case, percent-escapes decoded ('+' kept). */
    private static String extraKey(String raw) {
        String lower = raw.toLowerCase(Locale.ROOT);
        try {
            return URLDecoder.decode(lower.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return lower;
        }
    }
}
