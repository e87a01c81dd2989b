package dev.berth.manager.objects;

/** One field-level cause of a rejected object, as in metav1.StatusCause: the field path, what is wrong, and the cause type. */
public record FieldCause(String field, String message, String type) {
    public static FieldCause invalid(String field, String message) {
        return new FieldCause(field, message, "FieldValueInvalid");
    }

    public static FieldCause required(String field) {
        return new FieldCause(field, "Required value", "FieldValueRequired");
    }

    public static FieldCause notSupported(String field, String value, java.util.Collection<String> supported) {
        return new FieldCause(field, "Unsupported value: \"" + value + "\": supported values: "
                + String.join(", ", supported.stream().map(s -> "\"" + s + "\"").toList()), "FieldValueNotSupported");
    }

    public static FieldCause notFound(String field, String message) {
        return new FieldCause(field, message, "FieldValueNotFound");
    }
}
