package dev.berth.manager.api;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * A Kubernetes field selector ({@code metadata.name=x,involvedObject.uid!=y}) matched against any
 * dotted field path of the object; an absent field reads as "". The API server allows only a few
 * fields per kind; Berth allows every path, which is a superset.
 */
record FieldSelector(List<Term> terms) {
    record Term(String field, String value, boolean equal) {}

    static final FieldSelector EVERYTHING = new FieldSelector(List.of());

    static FieldSelector parse(String selector) {
        if (selector == null || selector.isBlank()) return EVERYTHING;
        List<Term> terms = new ArrayList<>();
        for (String part : selector.split(",")) {
            String term = part.trim();
            if (term.isEmpty()) continue;
            int notEqual = term.indexOf("!=");
            int doubleEqual = term.indexOf("==");
            int equal = term.indexOf('=');
            if (notEqual > 0) {
                terms.add(new Term(term.substring(0, notEqual).trim(), term.substring(notEqual + 2).trim(), false));
            } else if (doubleEqual > 0) {
                terms.add(new Term(term.substring(0, doubleEqual).trim(), term.substring(doubleEqual + 2).trim(), true));
            } else if (equal > 0) {
                terms.add(new Term(term.substring(0, equal).trim(), term.substring(equal + 1).trim(), true));
            } else {
                throw ApiException.badRequest("invalid field selector: \"" + term + "\": expected field=value or field!=value");
            }
        }
        return new FieldSelector(List.copyOf(terms));
    }

    boolean matches(JsonNode object) {
        for (Term term : terms) {
            if (valueAt(object, term.field()).equals(term.value()) != term.equal()) return false;
        }
        return true;
    }

    private static String valueAt(JsonNode object, String path) {
        JsonNode node = object;
        for (String segment : path.split("\\.")) node = node.path(segment);
        return node.isValueNode() ? node.asText() : "";
    }
}
