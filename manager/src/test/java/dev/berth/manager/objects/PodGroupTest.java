package dev.berth.manager.objects;

import static dev.berth.manager.objects.YamlObjects.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class PodGroupTest {

    static ObjectNode pod(String name, String extraLabels, String containers) {
        return yaml("""
                apiVersion: v1
                kind: Pod
                metadata:
                  name: %s
                  namespace: team-a
                  uid: uid-%s
                  labels: {kueue.x-k8s.io/queue-name: lq, kueue.x-k8s.io/pod-group-name: g, %s}
                  annotations: {kueue.x-k8s.io/pod-group-total-count: "3"}
                spec:
                  containers: %s
                """.formatted(name, name, extraLabels, containers));
    }

    private static final String SMALL = "[{name: c, image: a, resources: {requests: {cpu: \"1\"}}}]";
    private static final String SMALL_OTHER_IMAGE = "[{name: c, image: b, resources: {requests: {cpu: 1000m}}}]";
    private static final String LARGE = "[{name: c, image: a, resources: {requests: {cpu: \"4\"}}}]";

    @Test
    void podsOfTwoShapesMakeTwoPodSets() {
        List<ObjectNode> pods = List.of(pod("p1", "", SMALL), pod("p2", "", LARGE), pod("p3", "", SMALL_OTHER_IMAGE));

        ObjectNode workload = WorkloadFactory.fromPodGroup("g", pods, YamlObjects.Catalogue.NO_DEFAULT);

        assertThat(workload.path("metadata").path("name").asText()).isEqualTo("g");
        assertThat(workload.path("spec").path("queueName").asText()).isEqualTo("lq");
        assertThat(workload.path("metadata").path("ownerReferences")).extracting(ref -> ref.path("name").asText())
                .containsExactly("p1", "p2", "p3");
        assertThat(workload.path("metadata").path("ownerReferences")).allSatisfy(ref -> {
            assertThat(ref.path("kind").asText()).isEqualTo("Pod");
            assertThat(ref.path("controller").asBoolean()).isFalse();
        });
        JsonNode podSets = workload.path("spec").path("podSets");
        assertThat(podSets).hasSize(2);
        assertThat(podSets).extracting(podSet -> podSet.path("name").asText())
                .allSatisfy(name -> assertThat(name).matches("[0-9a-f]{8}"))
                .isSorted()
                .containsExactlyInAnyOrder(PodGroup.shapeName(pods.get(0)), PodGroup.shapeName(pods.get(1)));
        for (JsonNode podSet : podSets) {
            int expectedCount = podSet.path("name").asText().equals(PodGroup.shapeName(pods.get(0))) ? 2 : 1;
            assertThat(podSet.path("count").asInt()).isEqualTo(expectedCount);
        }
    }

    static Stream<Arguments> shapeChanges() {
        return Stream.of(
                Arguments.of("an image does not change the shape", "", SMALL_OTHER_IMAGE, true),
                Arguments.of("an equal quantity spelled differently does not change the shape", "", "[{name: c, image: a, resources: {requests: {cpu: 1000m}}}]", true),
                Arguments.of("kueue labels do not change the shape", "kueue.x-k8s.io/other: x", SMALL, true),
                Arguments.of("other labels change the shape", "role: worker", SMALL, false),
                Arguments.of("requests change the shape", "", LARGE, false),
                Arguments.of("a limit standing in for a request is the same request", "", "[{name: c, image: a, resources: {limits: {cpu: \"1\"}}}]", true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("shapeChanges")
    void shapeKey(String behaviour, String labels, String containers, boolean sameShape) {
        String reference = PodGroup.shapeName(pod("p1", "", SMALL));

        String other = PodGroup.shapeName(pod("p2", labels, containers));

        assertThat(other.equals(reference)).isEqualTo(sameShape);
    }
}
