package dev.berth.manager.security;

import java.security.MessageDigest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Static bearer tokens in kube-apiserver's {@code --token-auth-file} format: one CSV line per token,
 * {@code token,user,uid,"group1,group2"}; blank lines and lines starting with # are skipped.
 * Comparison is constant-time per candidate; tokens are never part of an error message.
 */
public final class TokenFile implements Authenticator {
    private final Map<String, UserInfo> users;

    private TokenFile(Map<String, UserInfo> users) {
        this.users = Map.copyOf(users);
    }

    /** @throws IllegalArgumentException naming the line (never its token) when a line is malformed */
    public static TokenFile parse(String text) {
        Map<String, UserInfo> users = new HashMap<>();
        String[] lines = text.split("\r?\n");
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#")) continue;
            List<String> fields = csv(line);
            if (fields.size() < 3 || fields.get(0).isEmpty() || fields.get(1).isEmpty()) {
                throw new IllegalArgumentException("token file line " + (i + 1) + ": expected token,user,uid[,\"group1,group2\"]");
            }
            List<String> groups = new ArrayList<>();
            if (fields.size() > 3) {
                for (String group : fields.get(3).split(",")) if (!group.isBlank()) groups.add(group.strip());
            }
            if (users.put(fields.get(0), new UserInfo(fields.get(1), fields.get(2), groups)) != null) {
                throw new IllegalArgumentException("token file line " + (i + 1) + ": duplicate token");
            }
        }
        return new TokenFile(users);
    }

    @Override
    public Optional<UserInfo> authenticate(String bearerToken) {
        byte[] presented = bearerToken.getBytes(StandardCharsets.UTF_8);
        UserInfo found = null;
        for (Map.Entry<String, UserInfo> entry : users.entrySet()) {
            if (MessageDigest.isEqual(presented, entry.getKey().getBytes(StandardCharsets.UTF_8))) found = entry.getValue();
        }
        return Optional.ofNullable(found);
    }

    public int size() {
        return users.size();
    }

    private static List<String> csv(String line) {
        List<String> fields = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '"') {
                if (quoted && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    field.append('"');
                    i++;
                } else {
                    quoted = !quoted;
                }
            } else if (c == ',' && !quoted) {
                fields.add(field.toString().strip());
                field.setLength(0);
            } else {
                field.append(c);
            }
        }
        fields.add(field.toString().strip());
        return fields;
    }
}
