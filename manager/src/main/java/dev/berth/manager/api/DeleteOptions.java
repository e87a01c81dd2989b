package dev.berth.manager.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.objects.InvalidObjectException;
import java.util.Locale;

/**
 * A DELETE request's meta/v1 DeleteOptions, from its JSON body (what kubectl and client-go send) or
 * its query parameters (what curl and some clients send). Where both name the same option the body
 * wins, as kube-apiserver's decoding does; {@code dryRun=All} in either place makes it a dry run, so
 * a query parameter can never be silently overridden into a real delete.
 *
 * @param dryRun        {@code dryRun: ["All"]}: checked and answered, nothing deleted
 * @param propagation   how dependents (objects whose ownerReferences name this object's uid) are treated
 * @param uid           precondition: the object's current uid, or null
 * @param resourceVersion precondition: the object's current resourceVersion, or null
 * @param gracePeriodSeconds accepted and ignored: Berth's kinds have no graceful deletion, every delete is immediate
 */
record DeleteOptions(boolean dryRun, Propagation propagation, String uid, String resourceVersion, Long gracePeriodSeconds) {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    /** kube-apiserver's three propagation policies. */
    enum Propagation {
        /** Dependents lose their ownerReference to the deleted object and stay. */
        ORPHAN("Orphan"),
        /** The object is deleted at once, then its dependents. */
        BACKGROUND("Background"),
        /** The object is marked (deletionTimestamp, finalizer foregroundDeletion), its dependents deleted, then it. */
        FOREGROUND("Foreground");

        final String wireName;

        Propagation(String wireName) {
            this.wireName = wireName;
        }

        static Propagation parse(String value) {
            for (Propagation p : values()) if (p.wireName.equals(value)) return p;
            throw ApiException.badRequest("propagationPolicy: Unsupported value: \"" + value
                    + "\": supported values: \"Foreground\", \"Background\", \"Orphan\"");
        }
    }

    static final DeleteOptions DEFAULT = new DeleteOptions(false, Propagation.BACKGROUND, null, null, null);

    static DeleteOptions of(ApiRequest request) {
        ObjectNode body = body(request.body());
        boolean dryRun = request.dryRun() || bodyDryRun(body);
        String policy = text(body, "propagationPolicy", request.param("propagationPolicy"));
        String orphanDependents = text(body, "orphanDependents", request.param("orphanDependents"));
        Propagation propagation = propagation(policy, orphanDependents);
        JsonNode preconditions = body.path("preconditions");
        String uid = text(preconditions, "uid", null);
        String resourceVersion = text(preconditions, "resourceVersion", null);
        String grace = text(body, "gracePeriodSeconds", request.param("gracePeriodSeconds"));
        Long gracePeriod = null;
        if (grace != null) {
            try {
                gracePeriod = Long.parseLong(grace);
            } catch (NumberFormatException e) {
                throw ApiException.badRequest("gracePeriodSeconds: Invalid value: \"" + grace + "\": must be an integer");
            }
        }
        return new DeleteOptions(dryRun, propagation, uid, resourceVersion, gracePeriod);
    }

    /**
     * Berth's default when the request names no policy is Background for every kind. (kube-apiserver
     * orphans batch/v1 Job dependents by default for backward compatibility with pods; a Berth Job's
     * only dependent is its Workload, which would then keep its quota with nothing to run it.)
     */
    private static Propagation propagation(String policy, String orphanDependents) {
        if (policy != null && orphanDependents != null) {
            throw ApiException.badRequest("orphanDependents and propagationPolicy cannot be both set");
        }
        if (policy != null) return Propagation.parse(policy);
        if (orphanDependents != null) {
            return orphanDependents.toLowerCase(Locale.ROOT).equals("true") ? Propagation.ORPHAN : Propagation.BACKGROUND;
        }
        return Propagation.BACKGROUND;
    }

    /** Whether a DELETE asks for a dry run in its DeleteOptions body (false for anything that is not one); for the audit record. */
    static boolean dryRunInBody(ApiRequest request) {
        if (!request.method().equals("DELETE") || request.body() == null || request.body().length == 0) return false;
        try {
            return bodyDryRun(body(request.body()));
        } catch (ApiException | InvalidObjectException notDeleteOptions) {
            return false;
        }
    }

    private static ObjectNode body(byte[] bytes) {
        if (bytes == null || bytes.length == 0) return JSON.objectNode();
        JsonNode node = ManifestReader.readAny(bytes);
        if (node == null || node.isMissingNode() || node.isNull()) return JSON.objectNode();
        if (!(node instanceof ObjectNode object)) throw ApiException.badRequest("the DeleteOptions body must be a JSON object");
        String kind = object.path("kind").asText("DeleteOptions");
        if (!kind.equals("DeleteOptions")) throw ApiException.badRequest("the body of a DELETE must be a DeleteOptions, not a " + kind);
        return object;
    }

    private static boolean bodyDryRun(ObjectNode body) {
        JsonNode dryRun = body.get("dryRun");
        if (dryRun == null || dryRun.isNull()) return false;
        if (!dryRun.isArray()) throw ApiException.badRequest("dryRun: must be a list of strings");
        boolean all = false;
        for (JsonNode value : dryRun) {
            if (!value.asText().equals("All")) {
                throw ApiException.badRequest("dryRun: Unsupported value: \"" + value.asText() + "\": supported values: \"All\"");
            }
            all = true;
        }
        return all;
    }

    private static String text(JsonNode node, String field, String otherwise) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) return otherwise;
        if (value.isContainerNode()) throw ApiException.badRequest(field + ": must be a scalar");
        return value.asText();
    }

    /** 409 Conflict worded as kube-apiserver's storage words a failed precondition. */
    void checkPreconditions(ResourcePath path, JsonNode stored) {
        JsonNode metadata = stored.path("metadata");
        String actualUid = metadata.path("uid").asText("");
        String actualVersion = metadata.path("resourceVersion").asText("");
        String failure = null;
        if (uid != null && !uid.equals(actualUid)) {
            failure = "Precondition failed: UID in precondition: " + uid + ", UID in object meta: " + actualUid;
        } else if (resourceVersion != null && !resourceVersion.equals(actualVersion)) {
            failure = "Precondition failed: ResourceVersion in precondition: " + resourceVersion
                    + ", ResourceVersion in object meta: " + actualVersion;
        }
        if (failure != null) {
            ResourceType type = path.type();
            throw new ApiException(409, "Conflict", "Operation cannot be fulfilled on " + type.qualifiedName() + " \""
                    + path.name() + "\": " + failure, path.name(), type.group(), type.plural(), java.util.List.of());
        }
    }
}
