package dev.berth.manager.security;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.List;

/**
 * One line of the audit log: who did what to which object, when, and the answer. Never a body or a token.
 * user and groups are the authenticated caller; impersonatedUserOrNull the identity it acted as, if any
 * (kube's audit Event has the same pair).
 */
public record AuditRecord(Instant timestamp, String user, List<String> groups, String verb, String apiGroup, String resource,
                          String namespace, String name, int code, boolean dryRun, UserInfo impersonatedUserOrNull) {
    public AuditRecord(Instant timestamp, String user, List<String> groups, String verb, String apiGroup, String resource,
                       String namespace, String name, int code, boolean dryRun) {
        this(timestamp, user, groups, verb, apiGroup, resource, namespace, name, code, dryRun, null);
    }

    public ObjectNode toJson() {
        ObjectNode line = JsonNodeFactory.instance.objectNode();
        line.put("timestamp", timestamp.toString());
        line.put("user", user);
        var groupArray = line.putArray("groups");
        groups.forEach(groupArray::add);
        line.put("verb", verb);
        line.put("apiGroup", apiGroup);
        line.put("resource", resource);
        line.put("namespace", namespace);
        line.put("name", name);
        line.put("code", code);
        line.put("dryRun", dryRun);
        if (impersonatedUserOrNull != null) {
            ObjectNode impersonated = line.putObject("impersonatedUser");
            impersonated.put("username", impersonatedUserOrNull.name());
            if (!impersonatedUserOrNull.uid().isEmpty()) impersonated.put("uid", impersonatedUserOrNull.uid());
            var impersonatedGroups = impersonated.putArray("groups");
            impersonatedUserOrNull.groups().forEach(impersonatedGroups::add);
        }
        return line;
    }

    /** Writes are always audited; reads only when they were refused. */
    public static boolean worthRecording(String verb, int code) {
        boolean read = verb.equals("get") || verb.equals("list") || verb.equals("watch");
        return !read || code == 401 || code == 403 || code == 429;
    }
}
