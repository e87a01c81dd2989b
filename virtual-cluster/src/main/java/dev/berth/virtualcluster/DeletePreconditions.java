package dev.berth.virtualcluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Optional;

/**
 * kube-apiserver's check of a delete's {@code DeleteOptions.preconditions} (uid, resourceVersion) against the stored
 * object, which the CRUD mock skips: it deletes whatever holds the name. A client that deletes what a listing showed (a
 * garbage collector, an agent cleaning up) sends the listed object's uid or resourceVersion, so that an object created
 * under the same name since is never deleted in its place. Pure: the delete's body and the stored object in, the
 * Conflict's message out when a precondition fails.
 */
final class DeletePreconditions {
    private static final ObjectMapper JSON = new ObjectMapper();

    private DeletePreconditions() {
    }

    /** The preconditions of a delete's body, or empty when it has none (or no body, or one that is not JSON). */
    static Optional<JsonNode> of(String deleteOptions) {
        if (deleteOptions == null || deleteOptions.isBlank()) return Optional.empty();
        try {
            JsonNode preconditions = JSON.readTree(deleteOptions).path("preconditions");
            boolean any = preconditions.hasNonNull("uid") || preconditions.hasNonNull("resourceVersion");
            return any ? Optional.of(preconditions) : Optional.empty();
        } catch (java.io.IOException notJson) {
            return Optional.empty();
        }
    }

    /**
     * Why the delete may not go ahead, in kube-apiserver's words, or empty when every precondition holds.
     *
     * @param preconditions the delete's preconditions ({@link #of})
     * @param stored        the stored object's JSON
     * @param resource      the resource and name for the message, as {@code deployments.apps "vllm-server"}
     */
    static Optional<String> conflict(JsonNode preconditions, String stored, String resource) {
        JsonNode metadata;
        try {
            metadata = JSON.readTree(stored).path("metadata");
        } catch (java.io.IOException unreadable) {
            return Optional.of("Operation cannot be fulfilled on " + resource + ": the stored object could not be read");
        }
        String uid = preconditions.path("uid").asText(null);
        if (uid != null && !uid.equals(metadata.path("uid").asText())) {
            return Optional.of("Operation cannot be fulfilled on " + resource + ": Precondition failed: UID in precondition: " + uid
                    + ", UID in object meta: " + metadata.path("uid").asText());
        }
        String resourceVersion = preconditions.path("resourceVersion").asText(null);
        if (resourceVersion != null && !resourceVersion.equals(metadata.path("resourceVersion").asText())) {
            return Optional.of("Operation cannot be fulfilled on " + resource + ": the ResourceVersion in the precondition ("
                    + resourceVersion + ") does not match the ResourceVersion in record (" + metadata.path("resourceVersion").asText()
                    + "). The object might have been modified");
        }
        return Optional.empty();
    }
}
