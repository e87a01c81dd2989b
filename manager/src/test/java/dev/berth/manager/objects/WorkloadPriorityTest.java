package dev.berth.manager.objects;

import static dev.berth.manager.objects.YamlObjects.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Kueue's order: the priority-class label, then the template's priorityClassName, then the global default, then 0. */
class WorkloadPriorityTest {

    static Stream<Arguments> resolutionOrder() {
        return Stream.of(
                Arguments.of("the label names a WorkloadPriorityClass", "kueue.x-k8s.io/priority-class: high", "",
                        YamlObjects.Catalogue.WITH_DEFAULT, 1000, "{group: kueue.x-k8s.io, kind: WorkloadPriorityClass, name: high}"),
                Arguments.of("the label wins over the template's class", "kueue.x-k8s.io/priority-class: high", "batch",
                        YamlObjects.Catalogue.WITH_DEFAULT, 1000, "{group: kueue.x-k8s.io, kind: WorkloadPriorityClass, name: high}"),
                Arguments.of("the template's priorityClassName names a PriorityClass", "", "batch",
                        YamlObjects.Catalogue.WITH_DEFAULT, 100, "{group: scheduling.k8s.io, kind: PriorityClass, name: batch}"),
                Arguments.of("the global default applies when nothing is named", "", "",
                        YamlObjects.Catalogue.WITH_DEFAULT, 10, "{group: scheduling.k8s.io, kind: PriorityClass, name: standard}"),
                Arguments.of("without any class the priority is 0", "", "",
                        YamlObjects.Catalogue.NO_DEFAULT, 0, null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("resolutionOrder")
    void jobPriority(String behaviour, String label, String podClass, PriorityResolver resolver, int priority, String ref) {
        JsonNode spec = WorkloadFactory.fromJob(yaml("""
                apiVersion: batch/v1
                kind: Job
                metadata:
                  name: j
                  namespace: ns
                  labels: {kueue.x-k8s.io/queue-name: lq, %s}
                spec:
                  template:
                    spec:
                      priorityClassName: "%s"
                      containers: [{name: c}]
                """.formatted(label, podClass)), resolver).path("spec");

        assertThat(spec.path("priority").asInt(-1)).isEqualTo(priority);
        assertThat(spec.get("priorityClassRef")).isEqualTo(ref == null ? null : yaml(ref));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("resolutionOrder")
    void singlePodPriority(String behaviour, String label, String podClass, PriorityResolver resolver, int priority, String ref) {
        JsonNode spec = WorkloadFactory.fromSinglePod(yaml("""
                apiVersion: v1
                kind: Pod
                metadata:
                  name: p
                  namespace: ns
                  labels: {kueue.x-k8s.io/queue-name: lq, %s}
                spec:
                  priorityClassName: "%s"
                  containers: [{name: c}]
                """.formatted(label, podClass)), resolver).path("spec");

        assertThat(spec.path("priority").asInt(-1)).isEqualTo(priority);
        assertThat(spec.get("priorityClassRef")).isEqualTo(ref == null ? null : yaml(ref));
    }
}
