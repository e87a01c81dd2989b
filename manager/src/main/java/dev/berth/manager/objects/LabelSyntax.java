package dev.berth.manager.objects;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/** Kubernetes label syntax: qualified-name keys with an optional DNS prefix ({@code example.com/team}) and short values. */
public final class LabelSyntax {
    private static final int NAME_MAX = 63;
    private static final String NAME_REGEX = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
    private static final Pattern NAME = Pattern.compile(NAME_REGEX);
    private static final Pattern VALUE = Pattern.compile("(" + NAME_REGEX + ")?");
    private static final String NAME_MESSAGE = "name part must consist of alphanumeric characters, '-', '_' or '.', "
            + "and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', "
            + "regex used for validation is '" + NAME_REGEX + "')";
    private static final String QUALIFIED_MESSAGE = "a qualified name must consist of alphanumeric characters, '-', "
            + "'_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or "
            + "'123-abc', regex used for validation is '" + NAME_REGEX + "') with an optional DNS subdomain prefix "
            + "and '/' (e.g. 'example.com/MyName')";
    private static final String VALUE_MESSAGE = "a valid label must be an empty string or consist of alphanumeric "
            + "characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  "
            + "or 'my_value',  or '12345', regex used for validation is '(" + NAME_REGEX + ")?')";

    private LabelSyntax() {}

    /** Validates every key and value of a label map; causes name the map's path. */
    public static void validateLabels(String path, Map<String, String> labels, List<FieldCause> into) {
        for (Map.Entry<String, String> label : labels.entrySet()) {
            validateKey(path, label.getKey(), into);
            validateValue(path, label.getValue(), into);
        }
    }

    /** A qualified name: label keys, taint and toleration keys, resource names. */
    public static void validateKey(String path, String key, List<FieldCause> into) {
        for (String problem : qualifiedNameProblems(key)) {
            into.add(FieldCause.invalid(path, "Invalid value: " + FieldReader.quote(key) + ": " + problem));
        }
    }

    public static void validateValue(String path, String value, List<FieldCause> into) {
        if (value.length() > NAME_MAX) {
            into.add(FieldCause.invalid(path, "Invalid value: " + FieldReader.quote(value) + ": " + ObjectNames.tooLong(NAME_MAX)));
        }
        if (!VALUE.matcher(value).matches()) {
            into.add(FieldCause.invalid(path, "Invalid value: " + FieldReader.quote(value) + ": " + VALUE_MESSAGE));
        }
    }

    private static List<String> qualifiedNameProblems(String key) {
        String[] parts = key.split("/", -1);
        if (parts.length > 2) return List.of(QUALIFIED_MESSAGE);
        String name = parts[parts.length - 1];
        java.util.ArrayList<String> problems = new java.util.ArrayList<>();
        if (parts.length == 2) {
            if (parts[0].isEmpty()) problems.add("prefix part must be non-empty");
            else for (String problem : ObjectNames.subdomainProblems(parts[0])) problems.add("prefix part " + problem);
        }
        if (name.isEmpty()) problems.add("name part must be non-empty");
        else {
            if (name.length() > NAME_MAX) problems.add("name part " + ObjectNames.tooLong(NAME_MAX));
            if (!NAME.matcher(name).matches()) problems.add(NAME_MESSAGE);
        }
        return problems;
    }
}
