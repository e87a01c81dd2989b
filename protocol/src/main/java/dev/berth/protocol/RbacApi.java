package dev.berth.protocol;

/** Kubernetes RBAC wire names: the API group, its kinds, and the built-in users, groups and roles Berth knows. */
public final class RbacApi {
    private RbacApi() {}

    public static final String GROUP = "rbac.authorization.k8s.io";
    public static final String V1 = "v1";
    public static final String ROLE = "Role";
    public static final String CLUSTER_ROLE = "ClusterRole";
    public static final String ROLE_BINDING = "RoleBinding";
    public static final String CLUSTER_ROLE_BINDING = "ClusterRoleBinding";

    public static final String SUBJECT_USER = "User";
    public static final String SUBJECT_GROUP = "Group";
    public static final String SUBJECT_SERVICE_ACCOUNT = "ServiceAccount";

    /** Members of this group are cluster administrators, bound to {@link #CLUSTER_ADMIN}. */
    public static final String MASTERS_GROUP = "system:masters";
    /** Every authenticated caller is in this group. */
    public static final String AUTHENTICATED_GROUP = "system:authenticated";
    public static final String ANONYMOUS_USER = "system:anonymous";
    public static final String SERVICE_ACCOUNT_PREFIX = "system:serviceaccount:";
    public static final String CLUSTER_ADMIN = "cluster-admin";

    /** The verb a binding grants on priority classes (with resourceNames) to let a caller submit at that priority. */
    public static final String VERB_USE = "use";
    public static final String WORKLOAD_PRIORITY_CLASSES = "workloadpriorityclasses";
    public static final String PRIORITY_CLASSES = "priorityclasses";
}
