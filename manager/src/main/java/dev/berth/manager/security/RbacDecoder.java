package dev.berth.manager.security;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.objects.FieldCause;
import dev.berth.manager.objects.InvalidObjectException;
import dev.berth.manager.objects.ObjectNames;
import dev.berth.protocol.RbacApi;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** Decodes and validates rbac.authorization.k8s.io/v1 Roles, ClusterRoles, RoleBindings and ClusterRoleBindings. */
public final class RbacDecoder {
    private static final Set<String> SUBJECT_KINDS = Set.of(RbacApi.SUBJECT_USER, RbacApi.SUBJECT_GROUP, RbacApi.SUBJECT_SERVICE_ACCOUNT);

    private RbacDecoder() {}

    public static RbacRole role(ObjectNode object) {
        List<FieldCause> causes = new ArrayList<>();
        String name = name(object, causes);
        List<PolicyRule> rules = new ArrayList<>();
        JsonNode items = object.path("rules");
        if (!items.isMissingNode() && !items.isNull() && !items.isArray()) causes.add(FieldCause.invalid("rules", "must be a list"));
        for (int i = 0; i < items.size(); i++) {
            JsonNode rule = items.path(i);
            String at = "rules[" + i + "]";
            List<String> verbs = strings(rule, "verbs", at, causes);
            if (verbs.isEmpty()) causes.add(FieldCause.required(at + ".verbs"));
            List<String> urls = strings(rule, "nonResourceURLs", at, causes);
            List<String> resources = strings(rule, "resources", at, causes);
            if (urls.isEmpty() && resources.isEmpty()) {
                causes.add(FieldCause.required(at + ".resources"));
            }
            rules.add(new PolicyRule(verbs, strings(rule, "apiGroups", at, causes), resources,
                    strings(rule, "resourceNames", at, causes), urls));
        }
        if (!causes.isEmpty()) throw InvalidObjectException.invalid(kind(object), name, causes);
        return new RbacRole(namespace(object), name, rules);
    }

    public static RbacBinding binding(ObjectNode object) {
        List<FieldCause> causes = new ArrayList<>();
        String name = name(object, causes);
        JsonNode roleRef = object.path("roleRef");
        String roleKind = roleRef.path("kind").asText("");
        String roleName = roleRef.path("name").asText("");
        boolean clusterBinding = RbacApi.CLUSTER_ROLE_BINDING.equals(kind(object));
        List<String> allowedKinds = clusterBinding ? List.of(RbacApi.CLUSTER_ROLE) : List.of(RbacApi.ROLE, RbacApi.CLUSTER_ROLE);
        if (!allowedKinds.contains(roleKind)) causes.add(FieldCause.notSupported("roleRef.kind", roleKind, allowedKinds));
        if (roleName.isEmpty()) causes.add(FieldCause.required("roleRef.name"));
        List<RbacBinding.Subject> subjects = new ArrayList<>();
        JsonNode items = object.path("subjects");
        if (!items.isMissingNode() && !items.isNull() && !items.isArray()) causes.add(FieldCause.invalid("subjects", "must be a list"));
        for (int i = 0; i < items.size(); i++) {
            JsonNode subject = items.path(i);
            String at = "subjects[" + i + "]";
            String kind = subject.path("kind").asText("");
            String subjectName = subject.path("name").asText("");
            String namespace = subject.path("namespace").asText("");
            if (!SUBJECT_KINDS.contains(kind)) causes.add(FieldCause.notSupported(at + ".kind", kind, SUBJECT_KINDS));
            if (subjectName.isEmpty()) causes.add(FieldCause.required(at + ".name"));
            if (kind.equals(RbacApi.SUBJECT_SERVICE_ACCOUNT) && namespace.isEmpty()) {
                if (clusterBinding) causes.add(FieldCause.required(at + ".namespace"));
                else namespace = namespace(object);
            }
            subjects.add(new RbacBinding.Subject(kind, subjectName, namespace));
        }
        if (!causes.isEmpty()) throw InvalidObjectException.invalid(kind(object), name, causes);
        return new RbacBinding(namespace(object), name, roleKind, roleName, subjects);
    }

    private static String name(ObjectNode object, List<FieldCause> causes) {
        String name = object.path("metadata").path("name").asText("");
        ObjectNames.validateName("metadata.name", name, causes);
        return name;
    }

    private static String namespace(ObjectNode object) {
        String kind = kind(object);
        boolean clusterScoped = RbacApi.CLUSTER_ROLE.equals(kind) || RbacApi.CLUSTER_ROLE_BINDING.equals(kind);
        return clusterScoped ? "" : object.path("metadata").path("namespace").asText("");
    }

    private static String kind(ObjectNode object) {
        return object.path("kind").asText("");
    }

    private static List<String> strings(JsonNode rule, String field, String at, List<FieldCause> causes) {
        JsonNode values = rule.path(field);
        List<String> out = new ArrayList<>();
        if (values.isMissingNode() || values.isNull()) return out;
        if (!values.isArray()) {
            causes.add(FieldCause.invalid(at + "." + field, "must be a list of strings"));
            return out;
        }
        for (int i = 0; i < values.size(); i++) {
            if (!values.get(i).isTextual()) causes.add(FieldCause.invalid(at + "." + field + "[" + i + "]", "must be a string"));
            else out.add(values.get(i).asText());
        }
        return out;
    }
}
