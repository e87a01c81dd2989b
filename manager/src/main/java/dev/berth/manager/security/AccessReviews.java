package dev.berth.manager.security;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.objects.FieldCause;
import dev.berth.manager.objects.InvalidObjectException;
import dev.berth.protocol.AccessReviewApi;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The answers to the self reviews kubectl's auth commands post, computed from an RBAC snapshot for the
 * identity the request runs as (the impersonated one, if any): SelfSubjectAccessReview ({@code kubectl
 * auth can-i}), SelfSubjectRulesReview ({@code can-i --list}) and SelfSubjectReview ({@code auth whoami}).
 * Nothing is stored. A null policy means authorization is off: everything is allowed.
 */
public final class AccessReviews {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String AUTHORIZATION_V1 = AccessReviewApi.AUTHORIZATION_GROUP + "/" + AccessReviewApi.V1;
    private static final String AUTHENTICATION_V1 = AccessReviewApi.AUTHENTICATION_GROUP + "/" + AccessReviewApi.V1;
    private static final List<String> RESOURCE_FIELDS = List.of("namespace", "verb", "group", "version", "resource", "subresource", "name");

    private AccessReviews() {}

    /** @throws InvalidObjectException 422 naming the field when not exactly one of the attribute kinds is given, or a field is not a string */
    public static ObjectNode accessReview(RbacPolicy policyOrNull, UserInfo user, ObjectNode review) {
        List<FieldCause> causes = new ArrayList<>();
        JsonNode spec = review.path("spec");
        JsonNode resource = spec.path("resourceAttributes");
        JsonNode nonResource = spec.path("nonResourceAttributes");
        boolean hasResource = resource.isObject();
        boolean hasNonResource = nonResource.isObject();
        if (hasResource == hasNonResource) {
            causes.add(hasResource ? FieldCause.invalid("spec.nonResourceAttributes", "cannot be specified in combination with resourceAttributes")
                    : FieldCause.required("spec.resourceAttributes"));
        }
        RequestAttributes attributes = hasResource
                ? new RequestAttributes(true, text(resource, "spec.resourceAttributes", "verb", causes), text(resource, "spec.resourceAttributes", "group", causes),
                        text(resource, "spec.resourceAttributes", "resource", causes), text(resource, "spec.resourceAttributes", "subresource", causes),
                        text(resource, "spec.resourceAttributes", "namespace", causes), text(resource, "spec.resourceAttributes", "name", causes), "")
                : new RequestAttributes(false, text(nonResource, "spec.nonResourceAttributes", "verb", causes), "", "", "", "", "",
                        text(nonResource, "spec.nonResourceAttributes", "path", causes));
        if (hasResource) text(resource, "spec.resourceAttributes", "version", causes);
        if (!causes.isEmpty()) throw InvalidObjectException.invalid(AccessReviewApi.SELF_SUBJECT_ACCESS_REVIEW, "", causes);
        boolean allowed = policyOrNull == null || policyOrNull.allows(user, attributes);
        ObjectNode answer = NODES.objectNode().put("apiVersion", AUTHORIZATION_V1).put("kind", AccessReviewApi.SELF_SUBJECT_ACCESS_REVIEW);
        answer.set("metadata", emptyMetadata());
        ObjectNode echoed = answer.putObject("spec");
        if (hasResource) {
            ObjectNode attributesNode = echoed.putObject("resourceAttributes");
            for (String field : RESOURCE_FIELDS) if (resource.hasNonNull(field)) attributesNode.put(field, resource.path(field).asText());
        } else {
            echoed.putObject("nonResourceAttributes").put("path", attributes.path()).put("verb", attributes.verb());
        }
        answer.putObject("status").put("allowed", allowed);
        return answer;
    }

    /** @throws InvalidObjectException 422 when spec.namespace is not a string */
    public static ObjectNode rulesReview(RbacPolicy policyOrNull, UserInfo user, ObjectNode review) {
        List<FieldCause> causes = new ArrayList<>();
        String namespace = text(review.path("spec"), "spec", "namespace", causes);
        if (!causes.isEmpty()) throw InvalidObjectException.invalid(AccessReviewApi.SELF_SUBJECT_RULES_REVIEW, "", causes);
        List<PolicyRule> rules = policyOrNull == null
                ? List.of(new PolicyRule(List.of("*"), List.of("*"), List.of("*"), List.of(), List.of()),
                        new PolicyRule(List.of("*"), List.of(), List.of(), List.of(), List.of("*")))
                : policyOrNull.rulesFor(user, namespace);
        ObjectNode answer = NODES.objectNode().put("apiVersion", AUTHORIZATION_V1).put("kind", AccessReviewApi.SELF_SUBJECT_RULES_REVIEW);
        answer.set("metadata", emptyMetadata());
        answer.putObject("spec").put("namespace", namespace);
        ObjectNode status = answer.putObject("status");
        ArrayNode resourceRules = status.putArray("resourceRules");
        ArrayNode nonResourceRules = status.putArray("nonResourceRules");
        for (PolicyRule rule : rules) {
            if (!rule.resources().isEmpty()) {
                ObjectNode out = resourceRules.addObject();
                strings(out, "verbs", rule.verbs());
                strings(out, "apiGroups", rule.apiGroups());
                strings(out, "resources", rule.resources());
                if (!rule.resourceNames().isEmpty()) strings(out, "resourceNames", rule.resourceNames());
            }
            if (!rule.nonResourceURLs().isEmpty()) {
                ObjectNode out = nonResourceRules.addObject();
                strings(out, "verbs", rule.verbs());
                strings(out, "nonResourceURLs", rule.nonResourceURLs());
            }
        }
        status.put("incomplete", false);
        return answer;
    }

    /** Who the caller is, as the server sees it (after impersonation). */
    public static ObjectNode selfReview(UserInfo user, Map<String, List<String>> extra, Instant now) {
        ObjectNode answer = NODES.objectNode().put("apiVersion", AUTHENTICATION_V1).put("kind", AccessReviewApi.SELF_SUBJECT_REVIEW);
        answer.putObject("metadata").put("creationTimestamp", now.toString());
        ObjectNode userInfo = answer.putObject("status").putObject("userInfo").put("username", user.name());
        if (!user.uid().isEmpty()) userInfo.put("uid", user.uid());
        strings(userInfo, "groups", user.groups());
        if (!extra.isEmpty()) {
            ObjectNode extraNode = userInfo.putObject("extra");
            extra.forEach((key, values) -> strings(extraNode, key, values));
        }
        return answer;
    }

    private static ObjectNode emptyMetadata() {
        ObjectNode metadata = NODES.objectNode();
        metadata.putNull("creationTimestamp");
        return metadata;
    }

    private static String text(JsonNode parent, String at, String field, List<FieldCause> causes) {
        JsonNode value = parent.path(field);
        if (value.isMissingNode() || value.isNull()) return "";
        if (!value.isTextual()) {
            causes.add(FieldCause.invalid(at + "." + field, "must be a string"));
            return "";
        }
        return value.asText();
    }

    private static void strings(ObjectNode into, String field, List<String> values) {
        ArrayNode array = into.putArray(field);
        values.forEach(array::add);
    }
}
