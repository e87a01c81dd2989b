package dev.berth.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.api.ManifestReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class PerfQueueManifestsTest {
    private static final QueueTopology TOPOLOGY = QueueTopology.kueuePerf(2, 3);

    private static List<ObjectNode> objects() {
        return ManifestReader.read(PerfQueueManifests.yaml(TOPOLOGY).getBytes(StandardCharsets.UTF_8), "application/yaml");
    }

    @Test
    void oneFlavorAndANamespaceClusterQueueAndLocalQueuePerQueue() {
        List<ObjectNode> objects = objects();
        assertThat(objects).hasSize(1 + 3 * TOPOLOGY.queueCount());
        assertThat(objects.stream().filter(o -> o.path("kind").asText().equals("ResourceFlavor")).map(o -> o.path("metadata").path("name").asText()))
                .containsExactly("default");
        assertThat(objects.stream().filter(o -> o.path("kind").asText().equals("Namespace")).map(o -> o.path("metadata").path("name").asText()))
                .containsExactly("ns-cohort-0-cq-0", "ns-cohort-0-cq-1", "ns-cohort-0-cq-2", "ns-cohort-1-cq-0", "ns-cohort-1-cq-1", "ns-cohort-1-cq-2");
    }

    @Test
    void clusterQueuesCarryKueuesPerfQuotaPreemptionAndCohort() {
        JsonNode queue = objects().stream().filter(o -> o.path("kind").asText().equals("ClusterQueue")
                && o.path("metadata").path("name").asText().equals("cohort-1-cq-2")).findFirst().orElseThrow();
        JsonNode spec = queue.path("spec");
        assertThat(spec.path("cohortName").asText()).isEqualTo("cohort-1");
        assertThat(spec.path("namespaceSelector").isObject()).isTrue();
        assertThat(spec.path("namespaceSelector").size()).isZero();
        assertThat(spec.path("preemption").path("reclaimWithinCohort").asText()).isEqualTo("Any");
        assertThat(spec.path("preemption").path("withinClusterQueue").asText()).isEqualTo("LowerPriority");
        JsonNode cpu = spec.path("resourceGroups").get(0).path("flavors").get(0).path("resources").get(0);
        assertThat(spec.path("resourceGroups").get(0).path("flavors").get(0).path("name").asText()).isEqualTo("default");
        assertThat(cpu.path("name").asText()).isEqualTo("cpu");
        assertThat(cpu.path("nominalQuota").asText()).isEqualTo("20");
        assertThat(cpu.path("borrowingLimit").asText()).isEqualTo("100");
    }

    @Test
    void eachNamespaceHasLocalQueueFeedingItsClusterQueue() {
        JsonNode local = objects().stream().filter(o -> o.path("kind").asText().equals("LocalQueue")
                && o.path("metadata").path("namespace").asText().equals("ns-cohort-0-cq-1")).findFirst().orElseThrow();
        assertThat(local.path("metadata").path("name").asText()).isEqualTo("local-queue");
        assertThat(local.path("spec").path("clusterQueue").asText()).isEqualTo("cohort-0-cq-1");
    }

    @Test
    void cpuQuantitiesInCoresWhenWhole() {
        assertThat(PerfQueueManifests.cpu(20_000)).isEqualTo("20");
        assertThat(PerfQueueManifests.cpu(1_500)).isEqualTo("1500m");
    }
}
