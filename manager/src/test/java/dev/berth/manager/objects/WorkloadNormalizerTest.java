package dev.berth.manager.objects;

import static dev.berth.manager.objects.YamlObjects.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class WorkloadNormalizerTest {

    static Stream<Arguments> normalizations() {
        return Stream.of(
                Arguments.of("active defaults to true and priority to 0", "", "{active: true, priority: 0}"),
                Arguments.of("an explicit inactive workload stays inactive", "  active: false", "{active: false, priority: 0}"),
                Arguments.of("a priority given without a class is kept", "  priority: 7", "{active: true, priority: 7}"),
                Arguments.of("a WorkloadPriorityClass ref gives its value", """
                          priority: 5
                          priorityClassRef: {group: kueue.x-k8s.io, kind: WorkloadPriorityClass, name: high}
                        """, "{active: true, priority: 1000, priorityClassRef: {group: kueue.x-k8s.io, kind: WorkloadPriorityClass, name: high}}"),
                Arguments.of("a PriorityClass ref gives its value", """
                          priorityClassRef: {group: scheduling.k8s.io, kind: PriorityClass, name: batch}
                        """, "{active: true, priority: 100, priorityClassRef: {group: scheduling.k8s.io, kind: PriorityClass, name: batch}}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("normalizations")
    void normalizedSpec(String behaviour, String extraSpec, String expected) {
        ObjectNode workload = yaml("""
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: Workload
                metadata: {name: w, namespace: ns}
                spec:
                  queueName: lq
                  podSets: [{name: main, template: {spec: {containers: [{name: c}]}}}]
                %s
                """.formatted(extraSpec));

        JsonNode spec = WorkloadFactory.normalizeWorkload(workload, YamlObjects.Catalogue.WITH_DEFAULT).path("spec");

        ObjectNode wanted = yaml(expected);
        assertThat(spec.path("active")).isEqualTo(wanted.path("active"));
        assertThat(spec.path("priority")).isEqualTo(wanted.path("priority"));
        assertThat(spec.get("priorityClassRef")).isEqualTo(wanted.get("priorityClassRef"));
        assertThat(spec.path("podSets").get(0).path("count").asInt()).as("count defaults to 1").isEqualTo(1);
        assertThat(workload.path("spec").has("active")).as("input untouched").isEqualTo(extraSpec.contains("active"));
    }
}
