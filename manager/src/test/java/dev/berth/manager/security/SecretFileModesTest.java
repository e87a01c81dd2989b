package dev.berth.manager.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.security.edge.AuditLog;
import dev.berth.manager.store.FileObjectStore;
import dev.berth.manager.store.ObjectKey;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The files that hold secrets at rest (the embedded store's journal and snapshot, which carry the
 * worker kubeconfig Secrets, and the audit log) are the manager user's only: 0600 in a 0700
 * directory, whether the manager creates them or finds them wider from an earlier version.
 */
class SecretFileModesTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void aNewStoreCreatesItsFilesOwnerOnly() throws Exception {
        Path data = dir.resolve("fresh/data");
        try (FileObjectStore store = FileObjectStore.open(data, Clock.systemUTC())) {
            store.create(ObjectKey.of("/secrets", "berth-system", "worker-1"), secret());
            store.compact();
            store.create(ObjectKey.of("/secrets", "berth-system", "worker-2"), secret());
        }
        assertThat(mode(data)).isEqualTo("rwx------");
        try (var files = Files.list(data)) {
            List<Path> all = files.toList();
            assertThat(all).extracting(p -> p.getFileName().toString()).contains("journal.log", "snapshot.dat", "LOCK");
            for (Path file : all) assertThat(mode(file)).as(file.toString()).isEqualTo("rw-------");
        }
    }

    @Test
    void anExistingStoreIsTightenedOnStart() throws Exception {
        Path data = dir.resolve("old");
        try (FileObjectStore store = FileObjectStore.open(data, Clock.systemUTC())) {
            store.create(ObjectKey.of("/secrets", "berth-system", "worker-1"), secret());
            store.compact();
            store.create(ObjectKey.of("/secrets", "berth-system", "worker-2"), secret());
        }
        Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rwxr-xr-x"));
        for (String name : List.of("journal.log", "snapshot.dat", "LOCK")) {
            Files.setPosixFilePermissions(data.resolve(name), PosixFilePermissions.fromString("rw-r--r--"));
        }
        try (FileObjectStore store = FileObjectStore.open(data, Clock.systemUTC())) {
            assertThat(store.get(ObjectKey.of("/secrets", "berth-system", "worker-2"))).isPresent();
        }
        assertThat(mode(data)).isEqualTo("rwx------");
        for (String name : List.of("journal.log", "snapshot.dat", "LOCK")) assertThat(mode(data.resolve(name))).as(name).isEqualTo("rw-------");
    }

    @Test
    void theAuditLogIsOwnerOnlyNewOrOld() throws Exception {
        Path fresh = dir.resolve("logs/audit.log");
        try (AuditLog audit = new AuditLog(fresh)) {
            audit.record(new AuditRecord(Instant.EPOCH, "alice", List.of("team-a"), "create", "", "secrets", "team-a", "s", 201, false));
        }
        assertThat(mode(fresh)).isEqualTo("rw-------");
        assertThat(mode(fresh.getParent())).isEqualTo("rwx------");

        Path old = dir.resolve("old-logs/audit.log");
        Files.createDirectories(old.getParent(), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        Files.writeString(old, "{}\n");
        Files.setPosixFilePermissions(old.getParent(), PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(old, PosixFilePermissions.fromString("rw-r--r--"));
        try (AuditLog audit = new AuditLog(old)) {
            audit.record(new AuditRecord(Instant.EPOCH, "alice", List.of("team-a"), "create", "", "secrets", "team-a", "s", 201, false));
        }
        assertThat(mode(old)).isEqualTo("rw-------");
        assertThat(mode(old.getParent())).isEqualTo("rwx------");
        assertThat(Files.readAllLines(old)).hasSize(2);
    }

    private static String mode(Path path) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    }

    private static ObjectNode secret() throws Exception {
        return (ObjectNode) JSON.readTree("{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"w\",\"namespace\":\"berth-system\"},"
                + "\"data\":{\"kubeconfig\":\"c2VjcmV0\"}}");
    }
}
