package dev.berth.manager.security;

import java.util.List;

/** A Role (namespace set) or ClusterRole (namespace ""). */
public record RbacRole(String namespace, String name, List<PolicyRule> rules) {
    public RbacRole {
        rules = List.copyOf(rules);
    }
}
