package dev.berth.manager.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The opaque {@code continue} of a paged LIST, shaped as kube-apiserver's (base64url of
 * {@code {"v":"meta.k8s.io/v1","rv":...,"start":...}}) plus the id of the list snapshot the pages
 * are read from. {@code start} is the last key returned ({@code namespace/name}); the next page begins
 * after it. A token without a snapshot ({@code rv} -1) continues from the current state: the
 * inconsistent continuation a 410 offers, as kube's does.
 */
record ContinueToken(long resourceVersion, String startAfter, String snapshotId) {
    static final String VERSION = "meta.k8s.io/v1";
    static final long INCONSISTENT = -1;
    private static final ObjectMapper JSON = new ObjectMapper();

    static ContinueToken consistent(long resourceVersion, String startAfter, String snapshotId) {
        return new ContinueToken(resourceVersion, startAfter, snapshotId);
    }

    static ContinueToken inconsistent(String startAfter) {
        return new ContinueToken(INCONSISTENT, startAfter, "");
    }

    boolean isConsistent() {
        return resourceVersion != INCONSISTENT;
    }

    String encode() {
        ObjectNode token = JSON.createObjectNode().put("v", VERSION).put("rv", resourceVersion).put("start", startAfter);
        if (!snapshotId.isEmpty()) token.put("snapshot", snapshotId);
        try {
            return Base64.getUrlEncoder().withoutPadding().encodeToString(JSON.writeValueAsBytes(token));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** @throws ApiException 400 BadRequest naming what is wrong with the token */
    static ContinueToken decode(String encoded) {
        JsonNode token;
        try {
            token = JSON.readTree(new String(Base64.getUrlDecoder().decode(encoded.strip()), StandardCharsets.UTF_8));
        } catch (IllegalArgumentException | IOException e) {
            throw invalid("illegal base64 data or JSON");
        }
        if (token == null || !token.isObject()) throw invalid("not a JSON object");
        if (!VERSION.equals(token.path("v").asText())) throw invalid("server does not recognize this encoded version");
        if (!token.path("rv").isIntegralNumber() || token.path("rv").asLong() == 0 || token.path("rv").asLong() < INCONSISTENT) {
            throw invalid("incorrect encoded start resourceVersion (version " + VERSION + ")");
        }
        String start = token.path("start").asText("");
        if (start.isEmpty()) throw invalid("encoded start key empty (version " + VERSION + ")");
        long resourceVersion = token.path("rv").asLong();
        String snapshot = token.path("snapshot").asText("");
        if (resourceVersion != INCONSISTENT && snapshot.isEmpty()) throw invalid("encoded snapshot empty");
        return new ContinueToken(resourceVersion, start, snapshot);
    }

    private static ApiException invalid(String why) {
        return ApiException.badRequest("continue key is not valid: " + why);
    }
}
