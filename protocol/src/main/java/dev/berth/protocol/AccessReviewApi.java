package dev.berth.protocol;

/**
 * Wire names of the identity tools kubectl relies on: the create-only review kinds of
 * authorization.k8s.io and authentication.k8s.io, and kube-apiserver's impersonation headers.
 */
public final class AccessReviewApi {
    private AccessReviewApi() {}

    public static final String AUTHORIZATION_GROUP = "authorization.k8s.io";
    public static final String AUTHENTICATION_GROUP = "authentication.k8s.io";
    public static final String V1 = "v1";

    public static final String SELF_SUBJECT_ACCESS_REVIEWS = "selfsubjectaccessreviews";
    public static final String SELF_SUBJECT_ACCESS_REVIEW = "SelfSubjectAccessReview";
    public static final String SELF_SUBJECT_RULES_REVIEWS = "selfsubjectrulesreviews";
    public static final String SELF_SUBJECT_RULES_REVIEW = "SelfSubjectRulesReview";
    public static final String SELF_SUBJECT_REVIEWS = "selfsubjectreviews";
    public static final String SELF_SUBJECT_REVIEW = "SelfSubjectReview";

    /** The built-in ClusterRole every authenticated caller has: create the three self reviews. */
    public static final String BASIC_USER_ROLE = "system:basic-user";

    public static final String IMPERSONATE_USER = "Impersonate-User";
    public static final String IMPERSONATE_GROUP = "Impersonate-Group";
    public static final String IMPERSONATE_UID = "Impersonate-Uid";
    public static final String IMPERSONATE_EXTRA_PREFIX = "Impersonate-Extra-";
    /** The verb a caller needs on users, groups, serviceaccounts, uids or userextras to act as them. */
    public static final String VERB_IMPERSONATE = "impersonate";
    public static final String USERS = "users";
    public static final String GROUPS = "groups";
    public static final String SERVICE_ACCOUNTS = "serviceaccounts";
    public static final String UIDS = "uids";
    public static final String USER_EXTRAS = "userextras";
    public static final String SERVICE_ACCOUNTS_GROUP = "system:serviceaccounts";
    public static final String UNAUTHENTICATED_GROUP = "system:unauthenticated";
}
