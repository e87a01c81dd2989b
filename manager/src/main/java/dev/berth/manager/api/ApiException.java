package dev.berth.manager.api;

import dev.berth.manager.objects.FieldCause;
import dev.berth.manager.objects.InvalidObjectException;
import java.util.List;

/**
 * A request the API refuses, carrying what a metav1 Status needs: HTTP code, reason, message and
 * the details (name, group, kind as the plural, field causes).
 */
public class ApiException extends RuntimeException {
    private final int code;
    private final String reason;
    private final String name;
    private final String group;
    private final String kind;
    private final List<FieldCause> causes;

    public ApiException(int code, String reason, String message, String name, String group, String kind, List<FieldCause> causes) {
        super(message);
        this.code = code;
        this.reason = reason;
        this.name = name;
        this.group = group;
        this.kind = kind;
        this.causes = List.copyOf(causes);
    }

    public static ApiException badRequest(String message) {
        return new ApiException(400, "BadRequest", message, null, null, null, List.of());
    }

    public static ApiException notFound(ResourceType type, String name) {
        return new ApiException(404, "NotFound", type.qualifiedName() + " \"" + name + "\" not found",
                name, type.group(), type.plural(), List.of());
    }

    public static ApiException forbidden(ResourceType type, String name, String message) {
        return new ApiException(403, "Forbidden", message, name, type.group(), type.plural(), List.of());
    }

    public static ApiException noSuchResource() {
        return new ApiException(404, "NotFound", "the server could not find the requested resource", null, null, null, List.of());
    }

    public static ApiException alreadyExists(ResourceType type, String name) {
        return new ApiException(409, "AlreadyExists", type.qualifiedName() + " \"" + name + "\" already exists",
                name, type.group(), type.plural(), List.of());
    }

    public static ApiException conflict(ResourceType type, String name) {
        return new ApiException(409, "Conflict", "Operation cannot be fulfilled on " + type.qualifiedName() + " \"" + name
                + "\": the object has been modified; please apply your changes to the latest version and try again",
                name, type.group(), type.plural(), List.of());
    }

    public static ApiException methodNotAllowed(String method) {
        return new ApiException(405, "MethodNotAllowed", "the server does not allow this method on the requested resource: " + method,
                null, null, null, List.of());
    }

    public static ApiException unsupportedMediaType(String contentType) {
        return new ApiException(415, "UnsupportedMediaType", "the body of the request was in an unknown format - accepted media types include: "
                + "application/json, application/yaml" + (contentType == null ? "" : "; got " + contentType), null, null, null, List.of());
    }

    public static ApiException tooLarge(long limitBytes) {
        return new ApiException(413, "RequestEntityTooLarge", "the request body is larger than the limit of " + limitBytes + " bytes",
                null, null, null, List.of());
    }

    public static ApiException internal() {
        return new ApiException(500, "InternalError", "an internal error occurred; see the manager's log", null, null, null, List.of());
    }

    /** An object refused by a decoder or hook, attributed to the kind and name it was sent as. */
    public static ApiException of(InvalidObjectException e, ResourceType type, String name) {
        return new ApiException(e.httpStatus(), e.reason(), e.getMessage(), name,
                type == null ? null : type.group(), type == null ? null : type.plural(), e.causes());
    }

    /** The same refusal with a prefix on its message, e.g. which document of a file it came from. */
    public ApiException withMessagePrefix(String prefix) {
        return new ApiException(code, reason, prefix + getMessage(), name, group, kind, causes);
    }

    public int code() {
        return code;
    }

    public String reason() {
        return reason;
    }

    public String name() {
        return name;
    }

    public String group() {
        return group;
    }

    public String kind() {
        return kind;
    }

    public List<FieldCause> causes() {
        return causes;
    }
}
