package dev.berth.manager.store.encryption;

/** A stored Secret value that cannot be decrypted with the configured keys; the message says which key is missing or wrong. */
public final class SecretDecryptionException extends IllegalStateException {
    public SecretDecryptionException(String message) {
        super(message);
    }
}
