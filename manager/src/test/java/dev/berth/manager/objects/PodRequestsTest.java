package dev.berth.manager.objects;

import static dev.berth.manager.objects.YamlObjects.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class PodRequestsTest {

    static Stream<Arguments> podSpecs() {
        return Stream.of(
                Arguments.of("containers' requests are summed", """
                        containers:
                        - resources: {requests: {cpu: 500m, memory: 1Gi}}
                        - resources: {requests: {cpu: "1", memory: 512Mi}}
                        """, Map.of("cpu", 1500L, "memory", 1610612736L)),
                Arguments.of("a limit without a request is the request", """
                        containers:
                        - resources: {limits: {cpu: "2", nvidia.com/gpu: "1"}}
                        """, Map.of("cpu", 2000L, "nvidia.com/gpu", 1L)),
                Arguments.of("a request wins over its limit", """
                        containers:
                        - resources: {requests: {cpu: "1"}, limits: {cpu: "4", memory: 2Gi}}
                        """, Map.of("cpu", 1000L, "memory", 2147483648L)),
                Arguments.of("a larger init container dominates per resource", """
                        initContainers:
                        - resources: {requests: {cpu: "3", memory: 1Mi}}
                        containers:
                        - resources: {requests: {cpu: "1", memory: 1Gi}}
                        """, Map.of("cpu", 3000L, "memory", 1073741824L)),
                Arguments.of("a sidecar adds to the running containers", """
                        initContainers:
                        - restartPolicy: Always
                          resources: {requests: {cpu: 500m}}
                        containers:
                        - resources: {requests: {cpu: "1"}}
                        """, Map.of("cpu", 1500L)),
                Arguments.of("an init container after a sidecar runs beside it", """
                        initContainers:
                        - restartPolicy: Always
                          resources: {requests: {cpu: "1"}}
                        - resources: {requests: {cpu: "4"}}
                        containers:
                        - resources: {requests: {cpu: "1"}}
                        """, Map.of("cpu", 5000L)),
                Arguments.of("pod overhead is added", """
                        overhead: {cpu: 250m, memory: 64Mi}
                        containers:
                        - resources: {requests: {cpu: "1"}}
                        """, Map.of("cpu", 1250L, "memory", 67108864L)),
                Arguments.of("zero amounts are dropped", """
                        containers:
                        - resources: {requests: {cpu: "0", memory: 1Ki}}
                        """, Map.of("memory", 1024L)),
                Arguments.of("JSON numbers are quantities", """
                        containers:
                        - resources: {requests: {cpu: 0.5, nvidia.com/gpu: 2}}
                        """, Map.of("cpu", 500L, "nvidia.com/gpu", 2L)),
                Arguments.of("no pods resource is added", """
                        containers:
                        - name: idle
                        """, Map.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("podSpecs")
    void perPodRequests(String behaviour, String podSpec, Map<String, Long> expected) {
        List<FieldCause> causes = new ArrayList<>();

        Map<String, Long> requests = PodRequests.perPod(yaml(podSpec), "spec", causes);

        assertThat(causes).isEmpty();
        assertThat(requests).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badQuantities")
    void unreadableQuantitiesNameTheirField(String behaviour, String podSpec, String field) {
        List<FieldCause> causes = new ArrayList<>();

        PodRequests.perPod(yaml(podSpec), "spec.podSets[0].template.spec", causes);

        assertThat(causes).extracting(FieldCause::field).containsExactly(field);
    }

    static Stream<Arguments> badQuantities() {
        return Stream.of(
                Arguments.of("malformed request", """
                        containers:
                        - resources: {requests: {cpu: "1"}}
                        - resources: {requests: {cpu: lots}}
                        """, "spec.podSets[0].template.spec.containers[1].resources.requests.cpu"),
                Arguments.of("negative limit", """
                        initContainers:
                        - resources: {limits: {memory: -1Gi}}
                        """, "spec.podSets[0].template.spec.initContainers[0].resources.limits.memory"),
                Arguments.of("overhead not a quantity", """
                        overhead: {cpu: [1]}
                        """, "spec.podSets[0].template.spec.overhead.cpu"));
    }
}
