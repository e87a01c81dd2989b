package dev.berth.manager.objects;

import static dev.berth.manager.objects.YamlObjects.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class WorkloadFactoryTest {
    private static final YamlObjects.Catalogue PRIORITIES = YamlObjects.Catalogue.NO_DEFAULT;

    static String job(String name, String specLines, String annotations) {
        return """
                apiVersion: batch/v1
                kind: Job
                metadata:
                  name: %s
                  namespace: team-a
                  uid: uid-1
                  labels: {kueue.x-k8s.io/queue-name: lq}
                  annotations: {%s}
                spec:
                %s
                  template:
                    spec:
                      containers:
                      - name: c
                        resources: {requests: {cpu: "1"}}
                """.formatted(name, annotations, specLines);
    }

    static Stream<Arguments> jobCounts() {
        return Stream.of(
                Arguments.of("parallelism defaults to one pod", "", "", 1, null),
                Arguments.of("parallelism is the count", "  parallelism: 4", "", 4, null),
                Arguments.of("fewer completions cap the count", "  parallelism: 4\n  completions: 2", "", 2, null),
                Arguments.of("more completions leave parallelism", "  parallelism: 3\n  completions: 10", "", 3, null),
                Arguments.of("min-parallelism becomes minCount", "  parallelism: 4",
                        "kueue.x-k8s.io/job-min-parallelism: \"2\"", 4, 2));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jobCounts")
    void jobPodSet(String behaviour, String spec, String annotations, int count, Integer minCount) {
        ObjectNode workload = WorkloadFactory.fromJob(yaml(job("train", spec, annotations)), PRIORITIES);

        JsonNode podSet = workload.path("spec").path("podSets").get(0);
        assertThat(workload.path("spec").path("podSets").size()).isEqualTo(1);
        assertThat(podSet.path("name").asText()).isEqualTo("main");
        assertThat(podSet.path("count").asInt()).isEqualTo(count);
        assertThat(podSet.has("minCount") ? podSet.path("minCount").asInt() : null).isEqualTo(minCount);
        assertThat(podSet.path("template").path("spec").path("containers").get(0).path("name").asText()).isEqualTo("c");
    }

    @Test
    void jobWorkloadCarriesKueueNameQueueAndOwner() {
        ObjectNode workload = WorkloadFactory.fromJob(yaml(job("train", "", "")), PRIORITIES);

        assertThat(workload).isEqualTo(yaml("""
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: Workload
                metadata:
                  name: job-train-a6870
                  namespace: team-a
                  labels: {kueue.x-k8s.io/queue-name: lq}
                  ownerReferences:
                  - {apiVersion: batch/v1, kind: Job, name: train, uid: uid-1, controller: true, blockOwnerDeletion: true}
                spec:
                  queueName: lq
                  podSets:
                  - name: main
                    count: 1
                    template:
                      spec:
                        containers:
                        - name: c
                          resources: {requests: {cpu: "1"}}
                  priority: 0
                  active: true
                """));
    }

    @Test
    void theMaxExecTimeLabelBecomesMaximumExecutionTimeSecondsAndTheDecoderReadsIt() {
        ObjectNode job = yaml(job("train", "", ""));
        ((ObjectNode) job.path("metadata").path("labels")).put("kueue.x-k8s.io/max-exec-time-seconds", "600");

        ObjectNode workload = WorkloadFactory.fromJob(job, PRIORITIES);

        assertThat(workload.path("spec").path("maximumExecutionTimeSeconds").asInt()).isEqualTo(600);
        assertThat(WorkloadDecoder.request(workload).maximumExecutionTimeSeconds()).isEqualTo(600L);
    }

    @Test
    void longJobNamesAreCutToFitTheHashIn253Characters() {
        String name = "a".repeat(300);
        ObjectNode job = yaml(job(name, "", ""));
        ((ObjectNode) job.path("metadata")).put("uid", "u");

        String workloadName = WorkloadFactory.fromJob(job, PRIORITIES).path("metadata").path("name").asText();

        assertThat(workloadName).hasSize(253).startsWith("job-aaaa").endsWith("a-fd46f");
    }

    static Stream<Arguments> jobSetCounts() {
        return Stream.of(
                Arguments.of("replicas and parallelism default to one", "", "", 1),
                Arguments.of("replicas times parallelism", "replicas: 3", "parallelism: 2", 6),
                Arguments.of("completions cap each job's pods", "replicas: 2", "parallelism: 4\n        completions: 1", 2),
                Arguments.of("zero replicas give zero pods", "replicas: 0", "parallelism: 4", 0));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jobSetCounts")
    void jobSetPodSetCounts(String behaviour, String replicas, String jobSpec, int count) {
        ObjectNode jobSet = yaml("""
                apiVersion: jobset.x-k8s.io/v1alpha2
                kind: JobSet
                metadata: {name: js, namespace: team-a, uid: uid-2, labels: {kueue.x-k8s.io/queue-name: lq}}
                spec:
                  replicatedJobs:
                  - name: driver
                    template:
                      spec:
                        template:
                          spec:
                            containers: [{name: d}]
                  - name: workers
                    %s
                    template:
                      spec:
                        %s
                        template:
                          spec:
                            containers: [{name: w}]
                """.formatted(replicas, jobSpec));

        ObjectNode workload = WorkloadFactory.fromJobSet(jobSet, PRIORITIES);

        assertThat(workload.path("metadata").path("name").asText()).isEqualTo("jobset-js-51243");
        assertThat(workload.path("metadata").path("ownerReferences").get(0).path("apiVersion").asText()).isEqualTo("jobset.x-k8s.io/v1alpha2");
        JsonNode podSets = workload.path("spec").path("podSets");
        assertThat(podSets.get(0).path("name").asText()).isEqualTo("driver");
        assertThat(podSets.get(0).path("count").asInt()).isEqualTo(1);
        assertThat(podSets.get(1).path("name").asText()).isEqualTo("workers");
        assertThat(podSets.get(1).path("count").asInt()).isEqualTo(count);
        assertThat(podSets.get(1).path("template").path("spec").path("containers").get(0).path("name").asText()).isEqualTo("w");
    }

    @Test
    void singlePodIsOnePodSetOfOne() {
        ObjectNode workload = WorkloadFactory.fromSinglePod(yaml("""
                apiVersion: v1
                kind: Pod
                metadata: {name: p1, namespace: team-a, uid: uid-3, labels: {kueue.x-k8s.io/queue-name: lq, app: x}}
                spec:
                  containers: [{name: c, resources: {requests: {cpu: 100m}}}]
                """), PRIORITIES);

        assertThat(workload.path("metadata").path("name").asText()).isEqualTo("pod-p1-58c56");
        assertThat(workload.path("metadata").path("ownerReferences").get(0))
                .isEqualTo(yaml("{apiVersion: v1, kind: Pod, name: p1, uid: uid-3, controller: true, blockOwnerDeletion: true}"));
        JsonNode podSet = workload.path("spec").path("podSets").get(0);
        assertThat(podSet.path("name").asText()).isEqualTo("main");
        assertThat(podSet.path("count").asInt()).isEqualTo(1);
        assertThat(podSet.path("template").path("metadata").path("labels").path("app").asText()).isEqualTo("x");
        assertThat(PodRequests.perPod((ObjectNode) podSet.path("template").path("spec"), "spec", new ArrayList<>()))
                .containsEntry("cpu", 100L);
    }

    @Test
    void theSubmittedObjectIsNotChanged() {
        ObjectNode job = yaml(job("train", "  parallelism: 2", ""));
        ObjectNode before = job.deepCopy();

        ObjectNode workload = WorkloadFactory.fromJob(job, PRIORITIES);
        ((ObjectNode) workload.path("spec").path("podSets").get(0).path("template")).put("changed", true);

        assertThat(job).isEqualTo(before);
    }
}
