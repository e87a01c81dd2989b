package dev.berth.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.manager.ha.ReplicaOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LaunchSettingsTest {
    @TempDir
    Path dir;

    @Test
    void withoutClusterMembersTheManagerRunsAloneOnTheFileStore() {
        LaunchSettings settings = new LaunchSettings(Map.of());
        assertThat(settings.replicated()).isFalse();
        assertThat(settings.storeKind()).isEqualTo("file");
    }

    @Test
    void environmentConfiguresAReplicaAndFlagsOverrideIt() throws Exception {
        Path password = Files.writeString(dir.resolve("pw"), "s3cret\n");
        LaunchSettings settings = new LaunchSettings(Map.of(
                "BERTH_CLUSTER_MEMBERS", "10.0.0.1:5701, 10.0.0.2:5701",
                "BERTH_REPLICA_ID", "m-1",
                "BERTH_PG_URL", "jdbc:postgresql://db:5432/berth",
                "BERTH_PG_PASSWORD_FILE", password.toString(),
                "BERTH_MIN_MEMBERS_TO_LEAD", "2"));
        settings.setFlag("--cluster-port", "5801");

        assertThat(settings.replicated()).isTrue();
        assertThat(settings.storeKind()).isEqualTo("postgres");
        assertThat(settings.describeStore(dir)).contains("jdbc:postgresql://db:5432/berth").doesNotContain("s3cret");
        ReplicaOptions options = settings.replicaOptions("0.0.0.0", 8080);
        assertThat(options.replicaId()).isEqualTo("m-1");
        assertThat(options.members()).containsExactly("10.0.0.1:5701", "10.0.0.2:5701");
        assertThat(options.clusterPort()).isEqualTo(5801);
        assertThat(options.minMembersToLead()).isEqualTo(2);
        assertThat(options.joinQuorum()).as("waits for every listed member before campaigning").isEqualTo(2);
        assertThat(options.joinTimeout()).isEqualTo(ReplicaOptions.DEFAULT_JOIN_TIMEOUT);
    }

    @Test
    void theJoinWaitIsConfigurable() {
        LaunchSettings settings = new LaunchSettings(Map.of(
                "BERTH_K8S_SERVICE_DNS", "berth-manager-hazelcast.berth-system.svc.cluster.local",
                "BERTH_PG_URL", "jdbc:postgresql://db:5432/berth",
                "BERTH_MIN_MEMBERS_TO_LEAD", "2"));
        assertThat(settings.replicaOptions("0.0.0.0", 8080).joinQuorum()).as("DNS discovery: minMembersToLead").isEqualTo(2);

        settings.setFlag("--expected-members", "3");
        settings.setFlag("--join-timeout-seconds", "45");
        ReplicaOptions options = settings.replicaOptions("0.0.0.0", 8080);
        assertThat(options.joinQuorum()).isEqualTo(3);
        assertThat(options.joinTimeout()).hasSeconds(45);
    }

    @Test
    void replicasRefuseTheFileStore() {
        LaunchSettings settings = new LaunchSettings(Map.of("BERTH_CLUSTER_MEMBERS", "127.0.0.1", "BERTH_STORE", "file"));
        assertThatThrownBy(settings::storeKind).hasMessageContaining("--store postgres");
    }
}
