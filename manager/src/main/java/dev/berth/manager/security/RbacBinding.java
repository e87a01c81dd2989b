package dev.berth.manager.security;

import dev.berth.protocol.RbacApi;
import java.util.List;

/** A RoleBinding (namespace set) or ClusterRoleBinding (namespace ""): subjects and the role they get. */
public record RbacBinding(String namespace, String name, String roleKind, String roleName, List<Subject> subjects) {
    public RbacBinding {
        subjects = List.copyOf(subjects);
    }

    /** A User, Group or ServiceAccount (whose namespace is set). */
    public record Subject(String kind, String name, String namespace) {
        boolean matches(UserInfo user) {
            return switch (kind) {
                case RbacApi.SUBJECT_USER -> name.equals(user.name());
                case RbacApi.SUBJECT_GROUP -> user.groups().contains(name);
                case RbacApi.SUBJECT_SERVICE_ACCOUNT -> user.name().equals(RbacApi.SERVICE_ACCOUNT_PREFIX + namespace + ":" + name);
                default -> false;
            };
        }
    }

    public boolean appliesTo(UserInfo user) {
        return subjects.stream().anyMatch(subject -> subject.matches(user));
    }
}
