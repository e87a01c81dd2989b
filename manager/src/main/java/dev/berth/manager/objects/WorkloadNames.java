package dev.berth.manager.objects;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/**
 * The name Kueue gives the Workload of a job: {@code <kind>-<name>-<5 hex>}, the hash being SHA-1 over
 * kind, group, name and uid (newline separated), the prefix cut so the whole name fits in 253 characters.
 */
final class WorkloadNames {
    static final int MAX_NAME_LENGTH = 253;
    private static final int HASH_LENGTH = 5;
    private static final int MAX_PREFIX_LENGTH = MAX_NAME_LENGTH - 1 - HASH_LENGTH;

    private WorkloadNames() {}

    static String forOwner(String kind, String group, String ownerName, String ownerUid) {
        String prefix = kind.toLowerCase(Locale.ROOT) + "-" + ownerName;
        if (prefix.length() > MAX_PREFIX_LENGTH) prefix = prefix.substring(0, MAX_PREFIX_LENGTH);
        String hashed = kind + "\n" + group + "\n" + ownerName + "\n" + (ownerUid == null ? "" : ownerUid);
        return prefix + "-" + hex("SHA-1", hashed).substring(0, HASH_LENGTH);
    }

    static String hex(String algorithm, String text) {
        try {
            byte[] digest = MessageDigest.getInstance(algorithm).digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(algorithm + " is part of every Java runtime", e);
        }
    }
}
