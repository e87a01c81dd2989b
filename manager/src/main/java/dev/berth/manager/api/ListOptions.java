package dev.berth.manager.api;

import dev.berth.manager.objects.FieldCause;
import java.util.ArrayList;
import java.util.List;

/**
 * The query of a LIST (or WATCH), checked as kube-apiserver's ValidateListOptions checks it: a bad
 * combination is a 422 Invalid ListOptions naming the field, a value that does not parse is a 400.
 */
record ListOptions(String labelSelector, String fieldSelector, long limit, String continueToken,
                   String resourceVersion, String resourceVersionMatch) {
    static final String NOT_OLDER_THAN = "NotOlderThan";
    static final String EXACT = "Exact";

    static ListOptions of(ApiRequest request) {
        ListOptions options = new ListOptions(request.param("labelSelector"), request.param("fieldSelector"),
                limit(request.param("limit")), blankToNull(request.param("continue")),
                blankToNull(request.param("resourceVersion")), blankToNull(request.param("resourceVersionMatch")));
        options.validate();
        String initial = request.param("sendInitialEvents");
        if (initial != null && !initial.isEmpty()) {
            throw invalid(List.of(new FieldCause("sendInitialEvents", "Forbidden: sendInitialEvents is forbidden for list", "FieldValueForbidden")));
        }
        return options;
    }

    static ListOptions selectors(String labelSelector, String fieldSelector) {
        return new ListOptions(labelSelector, fieldSelector, 0, null, null, null);
    }

    boolean paged() {
        return limit > 0;
    }

    boolean hasSelectors() {
        return !(labelSelector == null || labelSelector.isBlank()) || !(fieldSelector == null || fieldSelector.isBlank());
    }

    private void validate() {
        List<FieldCause> causes = new ArrayList<>();
        if (resourceVersionMatch != null) {
            if (resourceVersion == null) {
                causes.add(forbidden("resourceVersionMatch is forbidden unless resourceVersion is provided"));
            } else if (!resourceVersionMatch.equals(NOT_OLDER_THAN) && !resourceVersionMatch.equals(EXACT)) {
                causes.add(FieldCause.notSupported("resourceVersionMatch", resourceVersionMatch, List.of(EXACT, NOT_OLDER_THAN)));
            } else if (resourceVersionMatch.equals(EXACT) && resourceVersion.equals("0")) {
                causes.add(forbidden("resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\""));
            }
            if (continueToken != null) causes.add(forbidden("resourceVersionMatch is forbidden when continue is provided"));
        }
        if (!causes.isEmpty()) throw invalid(causes);
        if (continueToken != null && resourceVersion != null && !resourceVersion.equals("0")) {
            throw ApiException.badRequest("specifying resource version is not allowed when using continue");
        }
        if (resourceVersion != null && !resourceVersion.equals("0")) parseResourceVersion(resourceVersion);
    }

    /** @throws ApiException 400 when the value is not a resourceVersion this server hands out */
    static long parseResourceVersion(String resourceVersion) {
        try {
            long parsed = Long.parseLong(resourceVersion);
            if (parsed >= 0) return parsed;
        } catch (NumberFormatException e) {
            // answered below
        }
        throw ApiException.badRequest("resourceVersion: Invalid value: \"" + resourceVersion + "\": must be a non-negative integer");
    }

    static ApiException invalid(List<FieldCause> causes) {
        String summary = String.join(", ", causes.stream().map(c -> c.field() + ": " + c.message()).toList());
        return new ApiException(422, "Invalid", "ListOptions.meta.k8s.io \"\" is invalid: " + summary, "", "meta.k8s.io",
                "ListOptions", causes);
    }

    static FieldCause forbidden(String message) {
        return new FieldCause("resourceVersionMatch", "Forbidden: " + message, "FieldValueForbidden");
    }

    private static long limit(String value) {
        if (value == null || value.isBlank()) return 0;
        try {
            return Math.max(0, Long.parseLong(value.strip()));
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("limit: Invalid value: \"" + value + "\": must be an integer");
        }
    }

    private static String blankToNull(String value) {
        return value == null || value.isEmpty() ? null : value;
    }
}
