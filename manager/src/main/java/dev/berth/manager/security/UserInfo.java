package dev.berth.manager.security;

import dev.berth.protocol.RbacApi;
import java.util.ArrayList;
import java.util.List;

/** An authenticated caller: user name, uid (may be empty) and groups, system:authenticated included. */
public record UserInfo(String name, String uid, List<String> groups) {
    public UserInfo {
        List<String> all = new ArrayList<>(groups);
        if (!name.equals(RbacApi.ANONYMOUS_USER) && !all.contains(RbacApi.AUTHENTICATED_GROUP)) all.add(RbacApi.AUTHENTICATED_GROUP);
        groups = List.copyOf(all);
    }

    public boolean isAdmin() {
        return groups.contains(RbacApi.MASTERS_GROUP);
    }
}
