package dev.berth.manager.store.encryption;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * kube-apiserver's EncryptionConfiguration ({@code apiserver.config.k8s.io/v1}), as far as Berth
 * uses it: one resources entry for {@code secrets}, whose providers are {@code aesgcm} (named keys,
 * base64 16, 24 or 32 bytes) and {@code identity}. The first provider writes (its first key, for
 * aesgcm); every provider reads. Identity in the list lets a store that still holds plaintext
 * Secrets be read, which is how encryption is switched on for an existing store.
 */
public record EncryptionConfig(List<Provider> providers) {
    public static final String API_VERSION = "apiserver.config.k8s.io/v1";
    public static final String KIND = "EncryptionConfiguration";

    /** One provider: aesgcm with its keys in order, or identity (no keys). */
    public record Provider(String type, List<Key> keys) {
        public boolean identity() {
            return type.equals("identity");
        }
    }

    /** A named AES key; toString never shows the bytes. */
    public record Key(String name, byte[] secret) {
        @Override
        public String toString() {
            return "Key[" + name + "]";
        }
    }

    public EncryptionConfig {
        providers = List.copyOf(providers);
        if (providers.isEmpty()) throw new IllegalArgumentException("resources[0].providers: at least one provider is needed");
    }

    public static EncryptionConfig load(Path file) {
        try {
            return parse(Files.readString(file));
        } catch (IOException e) {
            throw new IllegalArgumentException("--encryption-provider-config " + file + ": cannot read it: " + e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--encryption-provider-config " + file + ": " + e.getMessage(), e);
        }
    }

    public static EncryptionConfig parse(String yaml) {
        JsonNode root;
        try {
            root = new ObjectMapper(new YAMLFactory()).readTree(yaml);
        } catch (IOException e) {
            throw new IllegalArgumentException("not valid YAML: " + e.getMessage());
        }
        if (root == null || !root.isObject()) throw new IllegalArgumentException("expected an EncryptionConfiguration object");
        if (!API_VERSION.equals(root.path("apiVersion").asText())) {
            throw new IllegalArgumentException("apiVersion: expected " + API_VERSION + ", got \"" + root.path("apiVersion").asText() + "\"");
        }
        if (!KIND.equals(root.path("kind").asText())) {
            throw new IllegalArgumentException("kind: expected " + KIND + ", got \"" + root.path("kind").asText() + "\"");
        }
        JsonNode resources = root.path("resources");
        if (!resources.isArray() || resources.size() != 1) {
            throw new IllegalArgumentException("resources: expected exactly one entry, for secrets (Berth encrypts Secrets only)");
        }
        JsonNode entry = resources.get(0);
        List<String> names = new ArrayList<>();
        entry.path("resources").forEach(name -> names.add(name.asText()));
        if (!names.equals(List.of("secrets"))) {
            throw new IllegalArgumentException("resources[0].resources: expected [secrets], got " + names + " (Berth encrypts Secrets only)");
        }
        List<Provider> providers = new ArrayList<>();
        JsonNode list = entry.path("providers");
        for (int i = 0; i < list.size(); i++) providers.add(provider(list.get(i), "resources[0].providers[" + i + "]"));
        return new EncryptionConfig(providers);
    }

    private static Provider provider(JsonNode node, String field) {
        if (!node.isObject() || node.size() != 1) throw new IllegalArgumentException(field + ": expected one of aesgcm or identity");
        Map.Entry<String, JsonNode> only = node.fields().next();
        return switch (only.getKey()) {
            case "identity" -> new Provider("identity", List.of());
            case "aesgcm" -> new Provider("aesgcm", keys(only.getValue().path("keys"), field + ".aesgcm.keys"));
            default -> throw new IllegalArgumentException(field + ": provider " + only.getKey()
                    + " is not supported; use aesgcm (with keys) or identity");
        };
    }

    private static List<Key> keys(JsonNode keys, String field) {
        if (!keys.isArray() || keys.isEmpty()) throw new IllegalArgumentException(field + ": at least one key is needed");
        List<Key> result = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            String name = keys.get(i).path("name").asText("");
            if (name.isEmpty() || name.contains(":")) {
                throw new IllegalArgumentException(field + "[" + i + "].name: a non-empty name without ':' is needed");
            }
            if (result.stream().anyMatch(k -> k.name().equals(name))) {
                throw new IllegalArgumentException(field + "[" + i + "].name: \"" + name + "\" is listed twice");
            }
            byte[] secret;
            try {
                secret = Base64.getDecoder().decode(keys.get(i).path("secret").asText("").strip());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(field + "[" + i + "].secret: not base64");
            }
            if (secret.length != 16 && secret.length != 24 && secret.length != 32) {
                throw new IllegalArgumentException(field + "[" + i + "].secret: an AES key of 16, 24 or 32 bytes is needed, got "
                        + secret.length + " bytes");
            }
            result.add(new Key(name, secret));
        }
        return result;
    }
}
