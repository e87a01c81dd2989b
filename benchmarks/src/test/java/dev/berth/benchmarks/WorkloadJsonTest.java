package dev.berth.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class WorkloadJsonTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void workloadHasOnePodSetMainOfOnePodWithItsCpuQueueAndBarePriority() throws Exception {
        JsonNode workload = JSON.readTree(WorkloadJson.workload("ns-a", "small-0", "local-queue", 50, 1000));
        assertThat(workload.path("apiVersion").asText()).isEqualTo("kueue.x-k8s.io/v1beta2");
        assertThat(workload.path("kind").asText()).isEqualTo("Workload");
        assertThat(workload.path("metadata").path("namespace").asText()).isEqualTo("ns-a");
        JsonNode spec = workload.path("spec");
        assertThat(spec.path("queueName").asText()).isEqualTo("local-queue");
        assertThat(spec.path("priority").asInt()).isEqualTo(50);
        assertThat(spec.path("podSets")).hasSize(1);
        JsonNode podSet = spec.path("podSets").get(0);
        assertThat(podSet.path("name").asText()).isEqualTo("main");
        assertThat(podSet.path("count").asInt()).isEqualTo(1);
        assertThat(podSet.path("template").path("spec").path("containers").get(0).path("resources").path("requests").path("cpu").asText())
                .isEqualTo("1000m");
    }

    @Test
    void finishPatchAppendsFinishedSucceededToTheConditions() throws Exception {
        JsonNode patch = JSON.readTree(WorkloadJson.finishedPatch(Instant.parse("2026-12-02T13:00:00.123456Z")));
        assertThat(patch).hasSize(1);
        assertThat(patch.get(0).path("op").asText()).isEqualTo("add");
        assertThat(patch.get(0).path("path").asText()).isEqualTo("/status/conditions/-");
        JsonNode condition = patch.get(0).path("value");
        assertThat(condition.path("type").asText()).isEqualTo("Finished");
        assertThat(condition.path("status").asText()).isEqualTo("True");
        assertThat(condition.path("reason").asText()).isEqualTo("Succeeded");
        assertThat(condition.path("lastTransitionTime").asText()).isEqualTo("2026-12-02T13:00:00Z");
    }

    @Test
    void statusPathIsTheWorkloadsStatusSubresource() {
        assertThat(WorkloadJson.statusPath("ns-a", "w")).isEqualTo("/apis/kueue.x-k8s.io/v1beta2/namespaces/ns-a/workloads/w/status");
    }
}
