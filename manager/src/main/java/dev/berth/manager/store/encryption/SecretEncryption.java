package dev.berth.manager.store.encryption;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.berth.manager.store.ObjectKey;
import dev.berth.manager.store.StorageTransformer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Encryption at rest of core/v1 Secrets, configured as kube-apiserver's EncryptionConfiguration: each
 * value of {@code data} and {@code stringData} is stored as an aesgcm envelope
 * ({@link AesGcmEnvelope}) sealed with the first provider's first key; the entry names, metadata and
 * every other kind stay as they are. Reading opens envelopes with whichever listed key they name, and
 * passes plain values through only when identity is among the providers. A first provider of identity
 * writes plaintext (the step that turns encryption off, while the keys still read what they sealed).
 */
public final class SecretEncryption implements StorageTransformer {
    static final String SECRETS = "/secrets";
    private static final List<String> FIELDS = List.of("data", "stringData");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final AesGcmEnvelope envelope;
    private final String writeKey;
    private final boolean readsPlaintext;

    public SecretEncryption(EncryptionConfig config) {
        List<EncryptionConfig.Key> keys = new ArrayList<>();
        config.providers().forEach(provider -> keys.addAll(provider.keys()));
        this.envelope = new AesGcmEnvelope(keys);
        EncryptionConfig.Provider first = config.providers().get(0);
        this.writeKey = first.identity() ? null : first.keys().get(0).name();
        this.readsPlaintext = config.providers().stream().anyMatch(EncryptionConfig.Provider::identity);
    }

    /** The key new values are sealed with; null when the first provider is identity. */
    public String writeKeyName() {
        return writeKey;
    }

    @Override
    public byte[] toStorage(ObjectKey key, byte[] json) {
        if (writeKey == null || !key.resource().equals(SECRETS)) return json;
        ObjectNode object = parse(json);
        boolean changed = false;
        for (String field : FIELDS) {
            if (!(object.get(field) instanceof ObjectNode values)) continue;
            for (Map.Entry<String, JsonNode> entry : values.properties()) {
                if (!entry.getValue().isTextual()) continue;
                entry.setValue(TextNode.valueOf(envelope.seal(writeKey, entry.getValue().asText(), place(key, field, entry.getKey()))));
                changed = true;
            }
        }
        return changed ? write(object) : json;
    }

    @Override
    public byte[] fromStorage(ObjectKey key, byte[] stored) {
        if (!key.resource().equals(SECRETS)) return stored;
        ObjectNode object = parse(stored);
        boolean changed = false;
        for (String field : FIELDS) {
            if (!(object.get(field) instanceof ObjectNode values)) continue;
            for (Map.Entry<String, JsonNode> entry : values.properties()) {
                if (!entry.getValue().isTextual()) continue;
                String value = entry.getValue().asText();
                String place = place(key, field, entry.getKey());
                if (AesGcmEnvelope.isSealed(value)) {
                    entry.setValue(TextNode.valueOf(envelope.open(value, place)));
                    changed = true;
                } else if (!readsPlaintext) {
                    throw new SecretDecryptionException("cannot read " + place + ": it is stored unencrypted and the encryption"
                            + " config has no identity provider; add '- identity: {}' as the last provider, restart, and rewrite the Secrets");
                }
            }
        }
        return changed ? write(object) : stored;
    }

    /** Where a value lives, bound into its ciphertext as associated data: Secret namespace/name, field and entry. */
    private static String place(ObjectKey key, String field, String entry) {
        return "Secret " + key.namespace() + "/" + key.name() + " " + field + "." + entry;
    }

    private static ObjectNode parse(byte[] json) {
        try {
            return (ObjectNode) JSON.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] write(ObjectNode object) {
        try {
            return JSON.writeValueAsBytes(object);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
