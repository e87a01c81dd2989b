package dev.berth.manager.store.encryption;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Seals and opens one value as {@code k8s:enc:aesgcm:v1:<key name>:<base64 of nonce and ciphertext>}:
 * AES-GCM with a fresh random 12-byte nonce per value and a 128-bit tag, the value's place (which
 * Secret, which field) as associated data so a sealed value cannot be moved to another Secret.
 */
final class AesGcmEnvelope {
    static final String PREFIX = "k8s:enc:aesgcm:v1:";
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;

    private final SecureRandom random = new SecureRandom();
    private final Map<String, SecretKeySpec> keys = new LinkedHashMap<>();

    AesGcmEnvelope(List<EncryptionConfig.Key> configured) {
        configured.forEach(key -> keys.put(key.name(), new SecretKeySpec(key.secret(), "AES")));
    }

    static boolean isSealed(String value) {
        return value.startsWith("k8s:enc:");
    }

    String seal(String keyName, String plaintext, String place) {
        byte[] nonce = new byte[NONCE_BYTES];
        random.nextBytes(nonce);
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, keys.get(keyName), new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(place.getBytes(StandardCharsets.UTF_8));
            byte[] sealed = cipher.doFinal(plaintext.getBytes(StandardCharsets.UTF_8));
            byte[] out = ByteBuffer.allocate(NONCE_BYTES + sealed.length).put(nonce).put(sealed).array();
            return PREFIX + keyName + ":" + Base64.getEncoder().encodeToString(out);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM encryption failed for " + place + ": " + e.getMessage(), e);
        }
    }

    /** The key name a sealed value names, if it is an aesgcm envelope. */
    static Optional<String> keyName(String sealed) {
        if (!sealed.startsWith(PREFIX)) return Optional.empty();
        int colon = sealed.indexOf(':', PREFIX.length());
        return colon < 0 ? Optional.empty() : Optional.of(sealed.substring(PREFIX.length(), colon));
    }

    boolean hasKey(String name) {
        return keys.containsKey(name);
    }

    /** @throws SecretDecryptionException when the key is not configured, or is not the one the value was sealed with */
    String open(String sealed, String place) {
        String name = keyName(sealed).orElseThrow(() -> new SecretDecryptionException("cannot decrypt " + place
                + ": it is encrypted with a provider other than aesgcm (" + sealed.substring(0, Math.min(sealed.length(), 24)) + "...)"));
        SecretKeySpec key = keys.get(name);
        if (key == null) {
            throw new SecretDecryptionException("cannot decrypt " + place + ": it was encrypted with aesgcm key \"" + name
                    + "\", which the encryption config does not list; put that key back in the config to read it");
        }
        try {
            byte[] bytes = Base64.getDecoder().decode(sealed.substring(PREFIX.length() + name.length() + 1));
            if (bytes.length < NONCE_BYTES + TAG_BITS / 8) throw new SecretDecryptionException("cannot decrypt " + place + ": too short");
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, bytes, 0, NONCE_BYTES));
            cipher.updateAAD(place.getBytes(StandardCharsets.UTF_8));
            return new String(cipher.doFinal(bytes, NONCE_BYTES, bytes.length - NONCE_BYTES), StandardCharsets.UTF_8);
        } catch (AEADBadTagException e) {
            throw new SecretDecryptionException("cannot decrypt " + place + " with aesgcm key \"" + name
                    + "\": authentication failed; the key of that name in the encryption config is not the one it was encrypted with"
                    + " (or the stored value was altered)");
        } catch (IllegalArgumentException e) {
            throw new SecretDecryptionException("cannot decrypt " + place + ": the stored value is not base64");
        } catch (GeneralSecurityException e) {
            throw new SecretDecryptionException("cannot decrypt " + place + ": " + e.getMessage());
        }
    }
}
