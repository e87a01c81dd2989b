package dev.berth.manager.objects;

import static dev.berth.manager.objects.YamlObjects.yaml;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Kueue's pod sets, priority and webhook rules for RayCluster and RayJob (raycluster.BuildPodSets,
 * RayJob.PodSets, raycluster.ValidateCreate, RayJobWebhook.validateCreate), one row a rule.
 */
class RayWorkloadsTest {
    private static final YamlObjects.Catalogue PRIORITIES = YamlObjects.Catalogue.NO_DEFAULT;

    static String group(String name, String fields, String priorityClass) {
        return """
                  - groupName: %s
                    %s
                    template:
                      spec:
                        %s
                        containers:
                        - name: w
                          resources: {requests: {cpu: "2", nvidia.com/gpu: "1"}}
                """.formatted(name, fields, priorityClass == null ? "" : "priorityClassName: " + priorityClass);
    }

    static String clusterSpec(String extra, String groups) {
        return """
                  %s
                  headGroupSpec:
                    template:
                      spec:
                        containers:
                        - name: ray-head
                          image: rayproject/ray:2.41.0
                          resources: {requests: {cpu: "1"}}
                  workerGroupSpecs:
                %s""".formatted(extra, groups.isEmpty() ? "    []\n" : groups);
    }

    static String rayCluster(String labels, String extra, String groups) {
        return """
                apiVersion: ray.io/v1
                kind: RayCluster
                metadata:
                  name: rc
                  namespace: team-a
                  uid: uid-1
                  labels: {kueue.x-k8s.io/queue-name: lq%s}
                spec:
                %s""".formatted(labels, clusterSpec(extra, groups));
    }

    static String rayJob(String jobFields, String extra, String groups) {
        String cluster = clusterSpec(extra, groups).indent(2);
        return """
                apiVersion: ray.io/v1
                kind: RayJob
                metadata:
                  name: rj
                  namespace: team-a
                  uid: uid-2
                  labels: {kueue.x-k8s.io/queue-name: lq}
                spec:
                  %s
                  rayClusterSpec:
                %s""".formatted(jobFields, cluster);
    }

    static Stream<Arguments> podSets() {
        return Stream.of(
                Arguments.of("head first, then each worker group by its lower-case name",
                        rayCluster("", "", group("GPU", "replicas: 3", null) + group("cpu", "replicas: 1", null)), "head=1,gpu=3,cpu=1"),
                Arguments.of("replicas default to one; minReplicas and maxReplicas do not count",
                        rayCluster("", "", group("w", "minReplicas: 2", null) + group("v", "maxReplicas: 9", null)), "head=1,w=1,v=1"),
                Arguments.of("a multi-host group counts replicas times numOfHosts",
                        rayCluster("", "", group("tpu", "replicas: 2\n    numOfHosts: 4", null)), "head=1,tpu=8"),
                Arguments.of("a RayJob in K8sJobMode (the default) adds the submitter",
                        rayJob("shutdownAfterJobFinishes: true", "", group("w", "replicas: 2", null)), "head=1,w=2,submitter=1"),
                Arguments.of("a RayJob in HTTPMode has no submitter pod set",
                        rayJob("shutdownAfterJobFinishes: true\n  submissionMode: HTTPMode", "", group("w", "replicas: 2", null)), "head=1,w=2"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("podSets")
    void podSetsAsKueueDerivesThem(String behaviour, String object, String expected) {
        ObjectNode parsed = yaml(object);
        ObjectNode workload = parsed.path("kind").asText().equals("RayJob")
                ? RayWorkloads.fromRayJob(parsed, PRIORITIES) : RayWorkloads.fromRayCluster(parsed, PRIORITIES);

        assertThat(String.join(",", podSets(workload))).isEqualTo(expected);
        JsonNode owner = workload.path("metadata").path("ownerReferences").get(0);
        assertThat(owner.path("kind").asText()).isEqualTo(parsed.path("kind").asText());
        assertThat(owner.path("apiVersion").asText()).isEqualTo("ray.io/v1");
        assertThat(workload.path("metadata").path("name").asText()).startsWith(parsed.path("kind").asText().toLowerCase() + "-");
        assertThat(workload.path("spec").path("queueName").asText()).isEqualTo("lq");
    }

    @Test
    void theDefaultSubmitterIsKubeRaysWithTheHeadsImage() {
        ObjectNode workload = RayWorkloads.fromRayJob(yaml(rayJob("shutdownAfterJobFinishes: true", "", "")), PRIORITIES);

        JsonNode submitter = workload.path("spec").path("podSets").path(1).path("template").path("spec");
        assertThat(submitter.path("containers").path(0).path("image").asText()).isEqualTo("rayproject/ray:2.41.0");
        assertThat(submitter.path("containers").path(0).path("resources").path("requests").toString())
                .isEqualTo("{\"cpu\":\"500m\",\"memory\":\"200Mi\"}");
        assertThat(submitter.path("restartPolicy").asText()).isEqualTo("Never");
    }

    @Test
    void sidecarModeCountsTheSubmitterContainerInTheHead() {
        ObjectNode workload = RayWorkloads.fromRayJob(yaml(rayJob("shutdownAfterJobFinishes: true\n  submissionMode: SidecarMode", "", "")),
                PRIORITIES);

        assertThat(podSets(workload)).containsExactly("head=1");
        assertThat(workload.path("spec").path("podSets").path(0).path("template").path("spec").path("containers").findValuesAsText("name"))
                .containsExactly("ray-head", "ray-job-submitter");
    }

    @Test
    void theFirstPodSetNamingAPriorityClassCountsUnderTheLabel() {
        ObjectNode byTemplate = RayWorkloads.fromRayCluster(yaml(rayCluster("", "", group("a", "", null) + group("b", "", "standard"))), PRIORITIES);
        ObjectNode byLabel = RayWorkloads.fromRayCluster(yaml(rayCluster(", kueue.x-k8s.io/priority-class: high", "",
                group("b", "", "standard"))), PRIORITIES);

        assertThat(byTemplate.path("spec").path("priorityClassRef").path("name").asText()).isEqualTo("standard");
        assertThat(byTemplate.path("spec").path("priority").asInt()).isEqualTo(10);
        assertThat(byLabel.path("spec").path("priority").asInt()).isEqualTo(1000);
    }

    static Stream<Arguments> invalid() {
        return Stream.of(
                Arguments.of("in-tree autoscaling (Kueue allows it only with workload slicing)",
                        rayCluster("", "enableInTreeAutoscaling: true", group("w", "", null)), "spec.enableInTreeAutoscaling"),
                Arguments.of("a worker group named head", rayCluster("", "", group("Head", "", null)), "spec.workerGroupSpecs[0].groupName"),
                Arguments.of("two groups of one name", rayCluster("", "", group("w", "", null) + group("W", "", null)),
                        "spec.workerGroupSpecs[1].groupName"),
                Arguments.of("more than eight pod sets", rayCluster("", "", groups(8)),
                        "spec.workerGroupSpecs"),
                Arguments.of("negative replicas", rayCluster("", "", group("w", "replicas: -1", null)), "spec.workerGroupSpecs[0].replicas"),
                Arguments.of("a RayJob that keeps its cluster after it finishes", rayJob("shutdownAfterJobFinishes: false", "", ""),
                        "spec.shutdownAfterJobFinishes"),
                Arguments.of("a RayJob with an unknown submission mode", rayJob("shutdownAfterJobFinishes: true\n  submissionMode: Batch", "", ""),
                        "spec.submissionMode"),
                Arguments.of("a RayJob's autoscaling cluster", rayJob("shutdownAfterJobFinishes: true", "enableInTreeAutoscaling: true", ""),
                        "spec.rayClusterSpec.enableInTreeAutoscaling"),
                Arguments.of("a RayJob without a cluster spec", """
                        apiVersion: ray.io/v1
                        kind: RayJob
                        metadata: {name: rj, namespace: team-a, labels: {kueue.x-k8s.io/queue-name: lq}}
                        spec: {shutdownAfterJobFinishes: true}
                        """, "spec.rayClusterSpec"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalid")
    void refusalsNameTheField(String behaviour, String object, String field) {
        ObjectNode parsed = yaml(object);
        InvalidObjectException refused = catchThrowableOfType(InvalidObjectException.class, () -> {
            if (parsed.path("kind").asText().equals("RayJob")) RayWorkloads.fromRayJob(parsed, PRIORITIES);
            else RayWorkloads.fromRayCluster(parsed, PRIORITIES);
        });

        assertThat(refused).as(behaviour).isNotNull();
        assertThat(refused.httpStatus()).isEqualTo(422);
        assertThat(YamlObjects.fields(refused)).contains(field);
    }

    private static String groups(int count) {
        StringBuilder groups = new StringBuilder();
        for (int i = 0; i < count; i++) groups.append(group("g" + i, "", null));
        return groups.toString();
    }

    private static List<String> podSets(JsonNode workload) {
        List<String> podSets = new ArrayList<>();
        for (JsonNode podSet : workload.path("spec").path("podSets")) podSets.add(podSet.path("name").asText() + "=" + podSet.path("count").asInt());
        return podSets;
    }
}
