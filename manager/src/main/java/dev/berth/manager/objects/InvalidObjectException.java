package dev.berth.manager.objects;

import java.util.List;

/**
 * An object the API must refuse. httpStatus is 400 (BadRequest: the body cannot be read) or 422
 * (Invalid: a field is wrong); causes name the fields. Nothing is stored when this is thrown.
 */
public class InvalidObjectException extends RuntimeException {
    private final int httpStatus;
    private final String reason;
    private final List<FieldCause> causes;

    public InvalidObjectException(int httpStatus, String reason, String message, List<FieldCause> causes) {
        super(message);
        this.httpStatus = httpStatus;
        this.reason = reason;
        this.causes = List.copyOf(causes);
    }

    /** 400 BadRequest: malformed YAML or JSON, an unknown kind, an unreadable body. */
    public static InvalidObjectException badRequest(String message) {
        return new InvalidObjectException(400, "BadRequest", message, List.of());
    }

    /** 422 Invalid: Kubernetes' message form, {@code Kind "name" is invalid: field: detail}. */
    public static InvalidObjectException invalid(String kind, String name, List<FieldCause> causes) {
        StringBuilder message = new StringBuilder(kind).append(" \"").append(name == null ? "" : name).append("\" is invalid: ");
        for (int i = 0; i < causes.size(); i++) {
            if (i > 0) message.append(", ");
            message.append(causes.get(i).field()).append(": ").append(causes.get(i).message());
        }
        return new InvalidObjectException(422, "Invalid", message.toString(), causes);
    }

    public int httpStatus() {
        return httpStatus;
    }

    public String reason() {
        return reason;
    }

    public List<FieldCause> causes() {
        return causes;
    }
}
