package dev.berth.manager.dispatch;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Kueue's names for the objects of its provisioning check: {@code <workload>-<check>-<attempt>} for a
 * ProvisioningRequest and {@code ppt-<request>-<podset>} for its PodTemplates, cut to 247 characters
 * plus "-" and five hex digits of the full name's SHA-1 when longer (Kueue's limitObjectName).
 */
public final class ProvisioningRequestNames {
    static final int HASH_LENGTH = 5;
    static final int MAX_PREFIX = 252 - HASH_LENGTH;

    private ProvisioningRequestNames() {}

    public static String request(String workload, String check, int attempt) {
        return limit(workload + "-" + check + "-" + attempt);
    }

    public static String podTemplate(String request, String podSet) {
        return limit("ppt-" + request + "-" + podSet);
    }

    static String limit(String fullName) {
        if (fullName.length() <= MAX_PREFIX) return fullName;
        try {
            byte[] hash = MessageDigest.getInstance("SHA-1").digest(fullName.getBytes(StandardCharsets.UTF_8));
            return fullName.substring(0, MAX_PREFIX) + "-" + HexFormat.of().formatHex(hash).substring(0, HASH_LENGTH);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is part of every Java platform", e);
        }
    }
}
