package dev.berth.manager.security;

import dev.berth.manager.api.ApiException;
import dev.berth.protocol.AccessReviewApi;
import dev.berth.protocol.RbacApi;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Acting as another identity, as kube-apiserver's impersonation filter does: every part asked for
 * (user or service account, each group, each extra value, the uid) needs the verb {@code impersonate}
 * on it for the authenticated caller, or the request is refused with 403 naming that part. Groups,
 * extras or a uid without a user are a 400 (kube answers 500). The impersonated user gets
 * system:authenticated (system:unauthenticated for system:anonymous), a service account named with no
 * groups gets its own groups, and from then on the request runs as the impersonated identity.
 */
public final class Impersonation {
    /** Header values beyond this many are refused: each costs one RBAC evaluation. */
    public static final int MAX_PARTS = 64;

    private Impersonation() {}

    /** What the Impersonate-* headers ask for; user is "" when the header is absent. */
    public record Request(String user, List<String> groups, String uid, Map<String, List<String>> extra) {
        public Request {
            groups = List.copyOf(groups);
            Map<String, List<String>> copy = new LinkedHashMap<>();
            extra.forEach((key, values) -> copy.put(key, List.copyOf(values)));
            extra = Collections.unmodifiableMap(copy);
        }

        public static Request none() {
            return new Request("", List.of(), "", Map.of());
        }

        boolean empty() {
            return user.isEmpty() && groups.isEmpty() && uid.isEmpty() && extra.isEmpty();
        }

        int parts() {
            return 1 + groups.size() + extra.values().stream().mapToInt(List::size).sum() + (uid.isEmpty() ? 0 : 1);
        }
    }

    /**
     * Who a request runs as: effective is the authenticated caller itself unless it impersonates;
     * extra is the impersonated user's extra attributes (empty otherwise).
     */
    public record Identity(UserInfo authenticated, UserInfo effective, Map<String, List<String>> extra) {
        public boolean impersonated() {
            return authenticated != effective;
        }
    }

    /**
     * @throws ApiException 400 for groups, extras or a uid without a user, or too many parts; 403 for
     *         a part the caller may not impersonate
     */
    public static Identity actAs(RbacPolicy policy, UserInfo caller, Request request) {
        if (request.empty()) return new Identity(caller, caller, Map.of());
        if (request.user().isEmpty()) {
            throw ApiException.badRequest("requested " + AccessReviewApi.IMPERSONATE_GROUP + ", " + AccessReviewApi.IMPERSONATE_UID
                    + " or " + AccessReviewApi.IMPERSONATE_EXTRA_PREFIX + "* without impersonating a user (" + AccessReviewApi.IMPERSONATE_USER + ")");
        }
        if (request.parts() > MAX_PARTS) {
            throw ApiException.badRequest("too many impersonation headers: at most " + MAX_PARTS + " users, groups, extra values and uids");
        }
        List<String> groups = new ArrayList<>(request.groups());
        String[] serviceAccount = serviceAccount(request.user());
        if (serviceAccount != null) {
            authorize(policy, caller, "", AccessReviewApi.SERVICE_ACCOUNTS, "", serviceAccount[0], serviceAccount[1]);
            if (groups.isEmpty()) {
                groups.add(AccessReviewApi.SERVICE_ACCOUNTS_GROUP);
                groups.add(AccessReviewApi.SERVICE_ACCOUNTS_GROUP + ":" + serviceAccount[0]);
            }
        } else {
            authorize(policy, caller, "", AccessReviewApi.USERS, "", "", request.user());
        }
        for (String group : request.groups()) authorize(policy, caller, "", AccessReviewApi.GROUPS, "", "", group);
        request.extra().forEach((key, values) -> values.forEach(value ->
                authorize(policy, caller, AccessReviewApi.AUTHENTICATION_GROUP, AccessReviewApi.USER_EXTRAS, key, "", value)));
        if (!request.uid().isEmpty()) authorize(policy, caller, AccessReviewApi.AUTHENTICATION_GROUP, AccessReviewApi.UIDS, "", "", request.uid());
        if (request.user().equals(RbacApi.ANONYMOUS_USER) && !groups.contains(AccessReviewApi.UNAUTHENTICATED_GROUP)) {
            groups.add(AccessReviewApi.UNAUTHENTICATED_GROUP);
        }
        return new Identity(caller, new UserInfo(request.user(), request.uid(), groups), request.extra());
    }

    private static void authorize(RbacPolicy policy, UserInfo caller, String group, String resource, String subresource,
                                  String namespace, String name) {
        RequestAttributes impersonate = new RequestAttributes(true, AccessReviewApi.VERB_IMPERSONATE, group, resource, subresource,
                namespace, name, "");
        if (policy.allows(caller, impersonate)) return;
        throw new ApiException(403, "Forbidden", RbacPolicy.forbiddenMessage(caller, impersonate), name, group, resource, List.of());
    }

    /** namespace and name of a service account user name (system:serviceaccount:ns:name), or null. */
    static String[] serviceAccount(String user) {
        if (!user.startsWith(RbacApi.SERVICE_ACCOUNT_PREFIX)) return null;
        String[] parts = user.substring(RbacApi.SERVICE_ACCOUNT_PREFIX.length()).split(":", -1);
        if (parts.length != 2 || parts[0].isEmpty() || parts[1].isEmpty()) return null;
        return parts;
    }
}
