package dev.berth.manager.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.store.FileObjectStore;
import dev.berth.manager.store.ObjectKey;
import dev.berth.manager.store.ObjectStore;
import dev.berth.manager.store.PostgresConfig;
import dev.berth.manager.store.PostgresObjectStore;
import dev.berth.manager.store.PostgresTestDatabase;
import dev.berth.manager.store.StorageTransformer;
import dev.berth.manager.store.encryption.EncryptionConfig;
import dev.berth.manager.store.encryption.SecretDecryptionException;
import dev.berth.manager.store.encryption.SecretEncryption;
import dev.berth.manager.testing.ManagerClient;
import dev.berth.manager.testing.ManagerHarness;
import dev.berth.manager.testing.NeedsPostgres;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Secrets encrypted at rest, configured as kube-apiserver's EncryptionConfiguration: the journal, the
 * snapshot and the PostgreSQL row never hold a Secret's values in plaintext; the manager reads them
 * back plain (Secrets stay write-only through the API); keys rotate (add, restart, rewrite, remove); a missing or wrong key stops the read with
 * a message naming the key; a sealed value moved into another Secret does not open.
 */
class SecretsAtRestTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String KUBECONFIG = "apiVersion: v1\nkind: Config\nusers: [{name: worker, user: {token: WORKER-TOKEN-7f3a9c}}]\n";
    private static final String KUBECONFIG_B64 = Base64.getEncoder().encodeToString(KUBECONFIG.getBytes(StandardCharsets.UTF_8));
    private static final String STRING_TOKEN = "string-data-token-5e1d0b";
    private static final String KEY1 = key(1);
    private static final String KEY2 = key(2);
    private static final ObjectKey WORKER = ObjectKey.of("/secrets", "berth-system", "worker-1");

    @TempDir
    Path dir;

    @Test
    void theJournalAndSnapshotNeverHoldTheValuesAndReadingBackGivesThem() throws Exception {
        Path data = dir.resolve("data");
        try (ObjectStore store = file(data, config(aesgcm("key1", KEY1), identity()))) {
            store.create(WORKER, secret());
            assertThat(store.get(WORKER).orElseThrow().object().path("data").path("kubeconfig").asText()).isEqualTo(KUBECONFIG_B64);
        }
        assertNoPlaintext(Files.readAllBytes(data.resolve("journal.log")));
        assertThat(new String(Files.readAllBytes(data.resolve("journal.log")), StandardCharsets.UTF_8)).contains("k8s:enc:aesgcm:v1:key1:");
        try (FileObjectStore store = file(data, config(aesgcm("key1", KEY1)))) {
            assertPlain(store.get(WORKER).orElseThrow().object());
            store.compact();
        }
        assertNoPlaintext(Files.readAllBytes(data.resolve("snapshot.dat")));
        try (ObjectStore store = file(data, config(aesgcm("key1", KEY1)))) {
            assertPlain(store.get(WORKER).orElseThrow().object());
        }
    }

    @Test
    void aSecretWrittenThroughTheApiIsSealedOnDiskAndOpenForTheManager() throws Exception {
        Path data = dir.resolve("api");
        try (ManagerHarness harness = ManagerHarness.empty().store(file(data, config(aesgcm("key1", KEY1))))) {
            harness.start();
            ManagerClient client = harness.client();
            client.send("POST", "/api/v1/namespaces", ManagerClient.JSON_TYPE,
                    "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"berth-system\"}}");
            String secrets = "/api/v1/namespaces/berth-system/secrets";
            HttpResponse<String> created = client.send("POST", secrets, ManagerClient.JSON_TYPE, secret().toString());
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            HttpResponse<String> read = client.send("GET", secrets + "/worker-1", null, null);
            assertThat(read.statusCode()).as("Secrets stay write-only through the API").isEqualTo(403);
            assertThat(read.body()).doesNotContain(KUBECONFIG_B64).doesNotContain("k8s:enc:");
        }
        assertNoPlaintext(Files.readAllBytes(data.resolve("journal.log")));
        try (ObjectStore store = file(data, config(aesgcm("key1", KEY1)))) {
            assertPlain(store.get(WORKER).orElseThrow().object());
        }
    }

    @Test
    void keysRotateAddRestartRewriteRemove() throws Exception {
        Path data = dir.resolve("rotate");
        try (ObjectStore store = file(data, config(aesgcm("key1", KEY1)))) {
            store.create(WORKER, secret());
        }
        // 1. the new key is added second, on every replica, so all of them can read what it seals
        // 2. it is moved first and the managers restarted: new writes use key2, key1 still reads
        try (FileObjectStore store = file(data, config(aesgcm("key2", KEY2, "key1", KEY1)))) {
            ObjectNode read = store.get(WORKER).orElseThrow().object();
            assertPlain(read);
            // 3. every Secret is rewritten (kubectl get secrets -A -o json | kubectl replace -f -); a compaction does it too
            store.replace(WORKER, read, null);
            store.compact();
        }
        String onDisk = new String(Files.readAllBytes(data.resolve("snapshot.dat")), StandardCharsets.UTF_8);
        assertThat(onDisk).contains("k8s:enc:aesgcm:v1:key2:").doesNotContain("k8s:enc:aesgcm:v1:key1:");
        // 4. key1 is removed
        try (ObjectStore store = file(data, config(aesgcm("key2", KEY2)))) {
            assertPlain(store.get(WORKER).orElseThrow().object());
        }
        assertThatThrownBy(() -> file(data, config(aesgcm("key1", KEY1))))
                .isInstanceOf(SecretDecryptionException.class)
                .hasMessageContaining("Secret berth-system/worker-1")
                .hasMessageContaining("aesgcm key \"key2\"")
                .hasMessageContaining("does not list");
    }

    @Test
    void aWrongKeyFailsClearlyAndLeavesTheJournalWhole() throws Exception {
        Path data = dir.resolve("wrong");
        try (ObjectStore store = file(data, config(aesgcm("key1", KEY1)))) {
            store.create(WORKER, secret());
        }
        long size = Files.size(data.resolve("journal.log"));
        assertThatThrownBy(() -> file(data, config(aesgcm("key1", KEY2))))
                .isInstanceOf(SecretDecryptionException.class)
                .hasMessageContaining("aesgcm key \"key1\"")
                .hasMessageContaining("authentication failed");
        assertThat(Files.size(data.resolve("journal.log"))).as("a decryption failure is not a torn tail to cut off").isEqualTo(size);
        try (ObjectStore store = file(data, config(aesgcm("key1", KEY1)))) {
            assertPlain(store.get(WORKER).orElseThrow().object());
        }
    }

    @Test
    void encryptionIsSwitchedOnForAPlainStoreThroughIdentity() throws Exception {
        Path data = dir.resolve("plain");
        try (ObjectStore store = FileObjectStore.open(data, Clock.systemUTC())) {
            store.create(WORKER, secret());
        }
        assertThatThrownBy(() -> file(data, config(aesgcm("key1", KEY1))))
                .isInstanceOf(SecretDecryptionException.class)
                .hasMessageContaining("stored unencrypted")
                .hasMessageContaining("identity");
        try (ObjectStore store = file(data, config(aesgcm("key1", KEY1), identity()))) {
            assertPlain(store.get(WORKER).orElseThrow().object());
        }
    }

    @Test
    void aSealedValueMovedIntoAnotherSecretDoesNotOpen() {
        SecretEncryption encryption = new SecretEncryption(config(aesgcm("key1", KEY1)));
        byte[] sealed = encryption.toStorage(WORKER, bytes(secret()));
        ObjectKey other = ObjectKey.of("/secrets", "team-a", "stolen");
        assertThatThrownBy(() -> encryption.fromStorage(other, sealed))
                .isInstanceOf(SecretDecryptionException.class)
                .hasMessageContaining("Secret team-a/stolen data.kubeconfig");
        assertThat(new String(encryption.fromStorage(WORKER, sealed), StandardCharsets.UTF_8)).contains(KUBECONFIG_B64);
    }

    @Test
    @NeedsPostgres
    void thePostgresRowNeverHoldsTheValues() throws Exception {
        PostgresConfig database = PostgresTestDatabase.freshSchema("secrets_at_rest");
        SecretEncryption encryption = new SecretEncryption(config(aesgcm("key1", KEY1)));
        try (ObjectStore store = PostgresObjectStore.open(database, Clock.systemUTC(), encryption)) {
            store.create(WORKER, secret());
            ObjectNode read = store.get(WORKER).orElseThrow().object();
            assertPlain(read);
            read.with("data").put("extra", Base64.getEncoder().encodeToString("another-secret-9d2".getBytes(StandardCharsets.UTF_8)));
            store.replace(WORKER, read, null);
            assertThat(store.list("/secrets", "berth-system")).hasSize(1);
            assertPlain(store.list("/secrets", null).get(0).object());
        }
        byte[] row = row(database);
        assertNoPlaintext(row);
        assertThat(new String(row, StandardCharsets.UTF_8)).doesNotContain("another-secret-9d2")
                .doesNotContain(Base64.getEncoder().encodeToString("another-secret-9d2".getBytes(StandardCharsets.UTF_8)))
                .contains("k8s:enc:aesgcm:v1:key1:");
        try (ObjectStore wrong = PostgresObjectStore.open(database, Clock.systemUTC(),
                new SecretEncryption(config(aesgcm("key1", KEY2))))) {
            assertThatThrownBy(() -> wrong.get(WORKER)).isInstanceOf(SecretDecryptionException.class)
                    .hasMessageContaining("aesgcm key \"key1\"").hasMessageContaining("authentication failed");
        }
    }

    @Test
    void theConfigIsKubesEncryptionConfigurationAndItsErrorsNameTheField() {
        EncryptionConfig parsed = EncryptionConfig.parse("""
                apiVersion: apiserver.config.k8s.io/v1
                kind: EncryptionConfiguration
                resources:
                  - resources:
                      - secrets
                    providers:
                      - aesgcm:
                          keys:
                            - name: key2
                              secret: %s
                            - name: key1
                              secret: %s
                      - identity: {}
                """.formatted(KEY2, KEY1));
        assertThat(new SecretEncryption(parsed).writeKeyName()).isEqualTo("key2");
        assertThat(parsed.providers()).extracting(EncryptionConfig.Provider::type).containsExactly("aesgcm", "identity");
        assertThat(parsed.toString()).doesNotContain(KEY1);
        assertThatThrownBy(() -> EncryptionConfig.parse(yaml("- aescbc: {keys: [{name: k, secret: " + KEY1 + "}]}")))
                .hasMessageContaining("resources[0].providers[0]").hasMessageContaining("aescbc is not supported");
        assertThatThrownBy(() -> EncryptionConfig.parse(yaml("- aesgcm: {keys: [{name: k, secret: c2hvcnQ=}]}")))
                .hasMessageContaining("resources[0].providers[0].aesgcm.keys[0].secret").hasMessageContaining("16, 24 or 32 bytes");
        assertThatThrownBy(() -> EncryptionConfig.parse(yaml("- identity: {}").replace("- secrets", "- configmaps")))
                .hasMessageContaining("resources[0].resources");
    }

    private static void assertNoPlaintext(byte[] stored) {
        String text = new String(stored, StandardCharsets.UTF_8);
        assertThat(text).doesNotContain(KUBECONFIG_B64).doesNotContain("WORKER-TOKEN-7f3a9c").doesNotContain(STRING_TOKEN)
                .contains("worker-1");
    }

    private static void assertPlain(JsonNode secret) {
        assertThat(secret.path("data").path("kubeconfig").asText()).isEqualTo(KUBECONFIG_B64);
        assertThat(secret.path("stringData").path("token").asText()).isEqualTo(STRING_TOKEN);
    }

    private static byte[] row(PostgresConfig database) throws Exception {
        try (Connection connection = DriverManager.getConnection(database.jdbcUrl(), database.user(), database.password());
             PreparedStatement select = connection.prepareStatement("SELECT json FROM " + database.schema() + ".objects WHERE name = ?")) {
            select.setString(1, WORKER.name());
            try (ResultSet row = select.executeQuery()) {
                assertThat(row.next()).isTrue();
                return row.getBytes(1);
            }
        }
    }

    private static FileObjectStore file(Path data, EncryptionConfig config) {
        StorageTransformer encryption = new SecretEncryption(config);
        return FileObjectStore.open(data, Clock.systemUTC(), FileObjectStore.DEFAULT_COMPACT_AFTER_BYTES, encryption);
    }

    private static ObjectNode secret() {
        ObjectNode secret = JSON.createObjectNode().put("apiVersion", "v1").put("kind", "Secret");
        secret.putObject("metadata").put("name", "worker-1").put("namespace", "berth-system");
        secret.putObject("data").put("kubeconfig", KUBECONFIG_B64);
        secret.putObject("stringData").put("token", STRING_TOKEN);
        return secret;
    }

    private static byte[] bytes(ObjectNode object) {
        return object.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String yaml(String providers) {
        return "apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n  - resources:\n      - secrets\n"
                + "    providers:\n      " + providers + "\n";
    }

    private static EncryptionConfig config(String... providers) {
        return EncryptionConfig.parse(yaml(String.join("\n      ", providers)));
    }

    private static String aesgcm(String... namesAndSecrets) {
        StringBuilder keys = new StringBuilder("- aesgcm: {keys: [");
        for (int i = 0; i < namesAndSecrets.length; i += 2) {
            if (i > 0) keys.append(", ");
            keys.append("{name: ").append(namesAndSecrets[i]).append(", secret: \"").append(namesAndSecrets[i + 1]).append("\"}");
        }
        return keys.append("]}").toString();
    }

    private static String identity() {
        return "- identity: {}";
    }

    private static String key(int seed) {
        byte[] key = new byte[32];
        for (int i = 0; i < key.length; i++) key[i] = (byte) (seed * 31 + i * 7);
        return Base64.getEncoder().encodeToString(key);
    }
}
