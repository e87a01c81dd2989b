package dev.berth.manager.api;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * A Kubernetes field selector ({@code metadata.name=x,involvedObject.uid!=y}) over the field labels
 * the kind allows ({@link FieldLabels}); any other label is a 400 {@code field label not supported},
 * as kube-apiserver answers.
 */
record FieldSelector(List<Term> terms) {
    record Term(FieldLabels.Field field, String value, boolean equal) {}

    static final FieldSelector EVERYTHING = new FieldSelector(List.of());

    static FieldSelector parse(String selector, ResourceType type) {
        if (selector == null || selector.isBlank()) return EVERYTHING;
        List<Term> terms = new ArrayList<>();
        for (String part : selector.split(",")) {
            String term = part.trim();
            if (term.isEmpty()) continue;
            int notEqual = term.indexOf("!=");
            int doubleEqual = term.indexOf("==");
            int equal = term.indexOf('=');
            if (notEqual > 0) {
                terms.add(term(type, term.substring(0, notEqual), term.substring(notEqual + 2), false));
            } else if (doubleEqual > 0) {
                terms.add(term(type, term.substring(0, doubleEqual), term.substring(doubleEqual + 2), true));
            } else if (equal > 0) {
                terms.add(term(type, term.substring(0, equal), term.substring(equal + 1), true));
            } else {
                throw ApiException.badRequest("invalid field selector: \"" + term + "\": expected field=value or field!=value");
            }
        }
        return new FieldSelector(List.copyOf(terms));
    }

    private static Term term(ResourceType type, String label, String value, boolean equal) {
        FieldLabels.Field field = FieldLabels.of(type, label.trim());
        if (field == null) throw ApiException.badRequest("field label not supported: " + label.trim());
        return new Term(field, value.trim(), equal);
    }

    boolean matches(JsonNode object) {
        for (Term term : terms) {
            if (valueAt(object, term.field()).equals(term.value()) != term.equal()) return false;
        }
        return true;
    }

    private static String valueAt(JsonNode object, FieldLabels.Field field) {
        JsonNode node = object;
        for (String segment : field.path().split("\\.")) node = node.path(segment);
        return node.isValueNode() && !node.isNull() ? node.asText() : field.absent();
    }
}
