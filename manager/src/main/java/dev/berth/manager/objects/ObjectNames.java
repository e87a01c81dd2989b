package dev.berth.manager.objects;

import java.util.List;
import java.util.regex.Pattern;

/** Kubernetes name syntax: DNS-1123 subdomains (most object names) and DNS-1123 labels (namespaces, pod sets). */
public final class ObjectNames {
    static final int SUBDOMAIN_MAX = 253;
    static final int LABEL_MAX = 63;
    private static final String LABEL_REGEX = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
    private static final String SUBDOMAIN_REGEX = LABEL_REGEX + "(\\." + LABEL_REGEX + ")*";
    private static final Pattern LABEL = Pattern.compile(LABEL_REGEX);
    private static final Pattern SUBDOMAIN = Pattern.compile(SUBDOMAIN_REGEX);
    static final String SUBDOMAIN_MESSAGE = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric "
            + "characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', "
            + "regex used for validation is '" + SUBDOMAIN_REGEX + "')";
    private static final String LABEL_MESSAGE = "a lowercase RFC 1123 label must consist of lower case alphanumeric "
            + "characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or "
            + "'123-abc', regex used for validation is '" + LABEL_REGEX + "')";

    private ObjectNames() {}

    /** A required DNS-1123 subdomain (at most 253 characters): the name of most objects and of the objects they name. */
    public static void validateName(String path, String value, List<FieldCause> into) {
        if (value == null || value.isEmpty()) {
            into.add(FieldCause.required(path));
            return;
        }
        for (String problem : subdomainProblems(value)) into.add(invalid(path, value, problem));
    }

    /** A required DNS-1123 label (at most 63 characters): namespace and pod set names. */
    public static void validateLabelName(String path, String value, List<FieldCause> into) {
        if (value == null || value.isEmpty()) {
            into.add(FieldCause.required(path));
            return;
        }
        if (value.length() > LABEL_MAX) into.add(invalid(path, value, tooLong(LABEL_MAX)));
        if (!LABEL.matcher(value).matches()) into.add(invalid(path, value, LABEL_MESSAGE));
    }

    /** Reads and validates metadata.name as a subdomain; returns it even when invalid, for the error message. */
    public static String readName(FieldReader root) {
        FieldReader name = root.field("metadata").object().field("name");
        String value = name.text();
        if (value != null || name.isAbsent()) validateName(name.path(), value, root.causes());
        return value;
    }

    /** Reads and validates metadata.name as a label (for namespaces). */
    public static String readLabelName(FieldReader root) {
        FieldReader name = root.field("metadata").object().field("name");
        String value = name.text();
        if (value != null || name.isAbsent()) validateLabelName(name.path(), value, root.causes());
        return value;
    }

    /** What is wrong with a subdomain, empty when nothing is. */
    static List<String> subdomainProblems(String value) {
        if (value.length() > SUBDOMAIN_MAX && !SUBDOMAIN.matcher(value).matches()) {
            return List.of(tooLong(SUBDOMAIN_MAX), SUBDOMAIN_MESSAGE);
        }
        if (value.length() > SUBDOMAIN_MAX) return List.of(tooLong(SUBDOMAIN_MAX));
        if (!SUBDOMAIN.matcher(value).matches()) return List.of(SUBDOMAIN_MESSAGE);
        return List.of();
    }

    static String tooLong(int max) {
        return "must be no more than " + max + " characters";
    }

    private static FieldCause invalid(String path, String value, String detail) {
        return FieldCause.invalid(path, "Invalid value: " + FieldReader.quote(value) + ": " + detail);
    }
}
