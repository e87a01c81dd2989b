package dev.berth.virtualcluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The simulated Trainer: a TrainJob's JobSet from its runtime, with the TrainJob's labels, and its status from the JobSet's. */
class TrainJobRulesTest {
    private static Map<String, Object> runtime() {
        Map<String, Object> node = new LinkedHashMap<>(Map.of("name", "node", "template", Map.of("spec", Map.of("template",
                Map.of("spec", Map.of("containers", List.of(new LinkedHashMap<>(Map.of("name", "node")))))))));
        Map<String, Object> init = new LinkedHashMap<>(Map.of("name", "dataset-initializer", "template", Map.of("spec", Map.of("template",
                Map.of("spec", Map.of("containers", List.of(Map.of("name", "init"))))))));
        return Map.of("spec", Map.of("mlPolicy", Map.of("numNodes", 1), "template", Map.of("spec", Map.of("replicatedJobs", List.of(init, node)))));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> at(Object map, Object... path) {
        Object current = map;
        for (Object key : path) current = key instanceof Integer i ? ((List<Object>) current).get(i) : ((Map<String, Object>) current).get(key);
        return (Map<String, Object>) current;
    }

    @Test
    void theJobSetIsTheRuntimesTemplateWithNumNodesAndTheTrainJobsLabelsOnEveryPod() {
        Map<String, Object> jobSet = TrainJobRules.childJobSet("team-a", "tj", "uid-1", Map.of("berth.dev/attempt-id", "att-1"),
                Map.of("runtimeRef", Map.of("name", "torch"), "trainer", Map.of("numNodes", 3)), runtime());

        assertThat(at(jobSet, "metadata")).containsEntry("name", "tj").containsEntry("namespace", "team-a");
        assertThat(at(jobSet, "metadata", "labels")).containsEntry("berth.dev/attempt-id", "att-1");
        assertThat(at(jobSet, "metadata").get("ownerReferences").toString()).contains("kind=TrainJob").contains("uid=uid-1");
        assertThat(at(jobSet, "spec")).containsEntry("suspend", false);
        Map<String, Object> node = at(jobSet, "spec", "replicatedJobs", 1, "template", "spec");
        assertThat(node).containsEntry("parallelism", 3).containsEntry("completions", 3);
        assertThat(at(node, "template", "metadata", "labels")).containsEntry("berth.dev/attempt-id", "att-1");
        assertThat(at(jobSet, "spec", "replicatedJobs", 0, "template", "spec", "template", "metadata", "labels"))
                .containsEntry("berth.dev/attempt-id", "att-1");
        assertThat(at(jobSet, "spec", "replicatedJobs", 0, "template", "spec")).doesNotContainKey("parallelism");
    }

    @Test
    void podTemplateOverridesPinTheTargetedJobsPodsOnly() {
        Map<String, Object> override = Map.of("targetJobs", List.of(Map.of("name", "node")),
                "metadata", Map.of("labels", Map.of("berth.dev/attempt-id", "att-2")),
                "spec", Map.of("nodeSelector", Map.of("gpu", "a100"), "tolerations", List.of(Map.of("key", "nvidia.com/gpu", "operator", "Exists"))));
        Map<String, Object> jobSet = TrainJobRules.childJobSet("team-a", "tj", "uid-1", Map.of(),
                Map.of("runtimeRef", Map.of("name", "torch"), "podTemplateOverrides", List.of(override)), runtime());

        Map<String, Object> node = at(jobSet, "spec", "replicatedJobs", 1, "template", "spec", "template");
        assertThat(at(node, "spec", "nodeSelector")).isEqualTo(Map.of("gpu", "a100"));
        assertThat(at(node, "spec").get("tolerations").toString()).contains("nvidia.com/gpu");
        assertThat(at(node, "metadata", "labels")).containsEntry("berth.dev/attempt-id", "att-2");
        assertThat(at(jobSet, "spec", "replicatedJobs", 0, "template", "spec", "template", "spec")).doesNotContainKey("nodeSelector");
    }

    @Test
    void completeWhenTheJobSetCompletedFailedWhenItFailedOtherwiseRunning() {
        assertThat(TrainJobRules.status(Map.of("terminalState", "Completed"), false).get("conditions").toString()).contains("type=Complete");
        assertThat(TrainJobRules.status(Map.of("terminalState", "Failed"), false).get("conditions").toString()).contains("type=Failed");
        assertThat(TrainJobRules.status(Map.of("replicatedJobsStatus", List.of(Map.of("name", "node", "active", 1))), false))
                .containsEntry("conditions", List.of()).extracting(s -> s.get("jobsStatus").toString()).asString().contains("name=node");
        assertThat(TrainJobRules.status(null, true).get("conditions").toString()).contains("type=Suspended");
    }
}
