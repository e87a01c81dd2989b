package dev.berth.manager;

import dev.berth.manager.ha.ReplicaOptions;
import dev.berth.manager.security.ReplicaTrust;
import dev.berth.manager.store.FileObjectStore;
import dev.berth.manager.store.ObjectStore;
import dev.berth.manager.store.PostgresConfig;
import dev.berth.manager.store.PostgresObjectStore;
import dev.berth.manager.store.StorageTransformer;
import dev.berth.manager.store.encryption.EncryptionConfig;
import dev.berth.manager.store.encryption.SecretEncryption;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The store and replica settings of {@link BerthMain}: each has an environment variable (for
 * containers) and a flag that overrides it. Replicated mode starts when cluster members or a
 * Kubernetes service DNS name are given; it needs the PostgreSQL store.
 */
final class LaunchSettings {
    /** Flag to environment variable. */
    static final Map<String, String> FLAGS = Map.ofEntries(
            Map.entry("--store", "BERTH_STORE"),
            Map.entry("--pg-url", "BERTH_PG_URL"),
            Map.entry("--pg-user", "BERTH_PG_USER"),
            Map.entry("--pg-password-file", "BERTH_PG_PASSWORD_FILE"),
            Map.entry("--pg-schema", "BERTH_PG_SCHEMA"),
            Map.entry("--replica-id", "BERTH_REPLICA_ID"),
            Map.entry("--cluster-name", "BERTH_CLUSTER_NAME"),
            Map.entry("--cluster-members", "BERTH_CLUSTER_MEMBERS"),
            Map.entry("--cluster-host", "BERTH_CLUSTER_HOST"),
            Map.entry("--cluster-port", "BERTH_CLUSTER_PORT"),
            Map.entry("--eventbus-port", "BERTH_EVENTBUS_PORT"),
            Map.entry("--kubernetes-service-dns", "BERTH_K8S_SERVICE_DNS"),
            Map.entry("--advertise-url", "BERTH_ADVERTISE_URL"),
            Map.entry("--min-members-to-lead", "BERTH_MIN_MEMBERS_TO_LEAD"),
            Map.entry("--heartbeat-timeout-seconds", "BERTH_HEARTBEAT_TIMEOUT_SECONDS"),
            Map.entry("--expected-members", "BERTH_EXPECTED_MEMBERS"),
            Map.entry("--join-timeout-seconds", "BERTH_JOIN_TIMEOUT_SECONDS"),
            Map.entry("--encryption-provider-config", "BERTH_ENCRYPTION_PROVIDER_CONFIG"),
            Map.entry("--replica-ca-file", "BERTH_REPLICA_CA_FILE"),
            Map.entry("--replica-cert-file", "BERTH_REPLICA_CERT_FILE"),
            Map.entry("--replica-key-file", "BERTH_REPLICA_KEY_FILE"),
            Map.entry("--replica-allowed-names", "BERTH_REPLICA_ALLOWED_NAMES"),
            Map.entry("--replica-port", "BERTH_REPLICA_PORT"));

    /** Where replicas forward to the leader (mutual TLS) unless --replica-port says otherwise. */
    static final int DEFAULT_REPLICA_PORT = 9443;

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(LaunchSettings.class);
    private static final String SECRETS = "/secrets";
    private final Map<String, String> values = new HashMap<>();

    LaunchSettings(Map<String, String> environment) {
        for (String name : FLAGS.values()) {
            String value = environment.get(name);
            if (value != null && !value.isBlank()) values.put(name, value);
        }
        // for tests and chaos drills only; a file (a mounted Secret) is the way in production
        String password = environment.get("BERTH_PG_PASSWORD");
        if (password != null) values.put("BERTH_PG_PASSWORD", password);
    }

    void setFlag(String flag, String value) {
        values.put(FLAGS.get(flag), value);
    }

    boolean replicated() {
        return values.containsKey("BERTH_CLUSTER_MEMBERS") || values.containsKey("BERTH_K8S_SERVICE_DNS");
    }

    String storeKind() {
        String kind = values.getOrDefault("BERTH_STORE", replicated() ? "postgres" : "file");
        if (!kind.equals("file") && !kind.equals("postgres")) {
            throw new IllegalArgumentException("--store must be file or postgres, not " + kind);
        }
        if (replicated() && kind.equals("file")) {
            throw new IllegalArgumentException("replicas share one store: use --store postgres with --cluster-members");
        }
        return kind;
    }

    String describeStore(Path data) {
        return storeKind().equals("file") ? data.toAbsolutePath().toString() : postgres().toString();
    }

    /**
     * Opens the store, with Secrets encrypted at rest when --encryption-provider-config names a kube
     * EncryptionConfiguration. Every stored Secret is read once before serving, so a missing or wrong
     * key stops the start with a message naming the key, not a later read.
     */
    ObjectStore openStore(Path data, Clock clock) throws IOException {
        StorageTransformer transformer = encryption();
        ObjectStore store = storeKind().equals("file")
                ? FileObjectStore.open(data, clock, FileObjectStore.DEFAULT_COMPACT_AFTER_BYTES, transformer)
                : PostgresObjectStore.open(postgres(), clock, transformer);
        if (transformer != StorageTransformer.IDENTITY) {
            try {
                int secrets = store.list(SECRETS, null).size();
                log.atInfo().setMessage("encryption at rest of Secrets is on")
                        .addKeyValue("writeKey", String.valueOf(((SecretEncryption) transformer).writeKeyName()))
                        .addKeyValue("secretsReadable", secrets).log();
            } catch (RuntimeException unreadable) {
                store.close();
                throw unreadable;
            }
        }
        return store;
    }

    private StorageTransformer encryption() {
        String file = values.get("BERTH_ENCRYPTION_PROVIDER_CONFIG");
        return file == null ? StorageTransformer.IDENTITY : new SecretEncryption(EncryptionConfig.load(Path.of(file)));
    }

    private PostgresConfig postgres() {
        String url = values.get("BERTH_PG_URL");
        if (url == null) throw new IllegalArgumentException("--store postgres needs --pg-url (BERTH_PG_URL)");
        return new PostgresConfig(url, values.getOrDefault("BERTH_PG_USER", "berth"), password(),
                values.getOrDefault("BERTH_PG_SCHEMA", PostgresConfig.DEFAULT_SCHEMA), 4);
    }

    private String password() {
        String file = values.get("BERTH_PG_PASSWORD_FILE");
        if (file == null) return values.getOrDefault("BERTH_PG_PASSWORD", "");
        try {
            return Files.readString(Path.of(file)).strip();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the PostgreSQL password file " + file, e);
        }
    }

    /**
     * Mutual TLS between replicas from --replica-ca-file, --replica-cert-file, --replica-key-file,
     * --replica-allowed-names (comma-separated common names; empty allows any certificate the CA
     * signed) and --replica-port; null when no replica CA is given.
     */
    ReplicaTrust replicaTrust() {
        String ca = values.get("BERTH_REPLICA_CA_FILE");
        if (ca == null) return null;
        String cert = values.get("BERTH_REPLICA_CERT_FILE");
        String key = values.get("BERTH_REPLICA_KEY_FILE");
        if (cert == null || key == null) {
            throw new IllegalArgumentException("--replica-ca-file needs --replica-cert-file and --replica-key-file too");
        }
        Set<String> allowed = Arrays.stream(values.getOrDefault("BERTH_REPLICA_ALLOWED_NAMES", "").split(","))
                .map(String::strip).filter(name -> !name.isEmpty()).collect(java.util.stream.Collectors.toSet());
        int port = Integer.parseInt(values.getOrDefault("BERTH_REPLICA_PORT", Integer.toString(DEFAULT_REPLICA_PORT)));
        return new ReplicaTrust(Path.of(ca), Path.of(cert), Path.of(key), allowed, port);
    }

    ReplicaOptions replicaOptions(String apiHost, int apiPort) {
        String members = values.getOrDefault("BERTH_CLUSTER_MEMBERS", "");
        List<String> memberList = Arrays.stream(members.split(",")).map(String::strip).filter(m -> !m.isEmpty()).toList();
        return new ReplicaOptions(
                values.get("BERTH_CLUSTER_NAME"),
                values.getOrDefault("BERTH_REPLICA_ID", hostName()),
                apiHost, apiPort,
                values.get("BERTH_ADVERTISE_URL"),
                values.getOrDefault("BERTH_CLUSTER_HOST", "127.0.0.1"),
                Integer.parseInt(values.getOrDefault("BERTH_CLUSTER_PORT", Integer.toString(ReplicaOptions.DEFAULT_CLUSTER_PORT))),
                Integer.parseInt(values.getOrDefault("BERTH_EVENTBUS_PORT", "0")),
                memberList,
                values.get("BERTH_K8S_SERVICE_DNS"),
                Integer.parseInt(values.getOrDefault("BERTH_MIN_MEMBERS_TO_LEAD", "1")),
                Duration.ofSeconds(Long.parseLong(values.getOrDefault("BERTH_HEARTBEAT_TIMEOUT_SECONDS",
                        Long.toString(ReplicaOptions.DEFAULT_HEARTBEAT_TIMEOUT.toSeconds())))),
                Duration.ofSeconds(1),
                Integer.parseInt(values.getOrDefault("BERTH_EXPECTED_MEMBERS", "0")),
                Duration.ofSeconds(Long.parseLong(values.getOrDefault("BERTH_JOIN_TIMEOUT_SECONDS",
                        Long.toString(ReplicaOptions.DEFAULT_JOIN_TIMEOUT.toSeconds())))));
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "berth-manager";
        }
    }
}
