package dev.berth.manager.objects;

import static dev.berth.manager.objects.YamlObjects.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.model.LabelRequirement;
import dev.berth.manager.model.PodSetRequest;
import dev.berth.manager.model.Toleration;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.model.WorkloadRequest;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class WorkloadDecoderTest {

    @Test
    void readsEverythingTheSchedulerDecidesOver() {
        WorkloadRequest request = WorkloadDecoder.request(yaml("""
                kind: Workload
                metadata: {name: w, namespace: ns, creationTimestamp: "2026-01-02T03:04:05Z"}
                spec:
                  queueName: lq
                  priority: 100
                  podSets:
                  - name: workers
                    count: 4
                    minCount: 2
                    template:
                      spec:
                        nodeSelector: {zone: a}
                        tolerations:
                        - {key: gpu, operator: Exists, effect: NoSchedule}
                        affinity:
                          nodeAffinity:
                            requiredDuringSchedulingIgnoredDuringExecution:
                              nodeSelectorTerms:
                              - matchExpressions:
                                - {key: arch, operator: In, values: [amd64, arm64]}
                                - {key: spot, operator: DoesNotExist}
                              - matchExpressions:
                                - {key: arch, operator: NotIn, values: [s390x]}
                        containers:
                        - resources: {requests: {cpu: 500m}, limits: {nvidia.com/gpu: 1}}
                """));

        assertThat(request).isEqualTo(new WorkloadRequest(WorkloadKey.of("ns", "w"), "lq", 100,
                Instant.parse("2026-01-02T03:04:05Z").toEpochMilli(),
                List.of(new PodSetRequest("workers", 4, 2, Map.of("cpu", 500L, "nvidia.com/gpu", 1L), Map.of("zone", "a"),
                        List.of(List.of(new LabelRequirement("arch", "In", List.of("amd64", "arm64")),
                                        new LabelRequirement("spot", "DoesNotExist", List.of())),
                                List.of(new LabelRequirement("arch", "NotIn", List.of("s390x")))),
                        List.of(new Toleration("gpu", "Exists", null, "NoSchedule"))))));
    }

    static Stream<Arguments> defaults() {
        return Stream.of(
                Arguments.of("no creation timestamp reads as 0", "{name: w, namespace: ns}", "{}", 0L, 0, true),
                Arguments.of("an offset timestamp is read as an instant", "{name: w, namespace: ns, creationTimestamp: \"2026-01-02T04:04:05+01:00\"}",
                        "{}", Instant.parse("2026-01-02T03:04:05Z").toEpochMilli(), 0, true),
                Arguments.of("priority is read", "{name: w, namespace: ns}", "{priority: -5}", 0L, -5, true),
                Arguments.of("active false is inactive", "{name: w, namespace: ns}", "{active: false}", 0L, 0, false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("defaults")
    void defaultsAndActivity(String behaviour, String metadata, String spec, long creationMillis, int priority, boolean active) {
        var workload = yaml("{kind: Workload, metadata: %s, spec: %s}".formatted(metadata, spec));

        WorkloadRequest request = WorkloadDecoder.request(workload);

        assertThat(request.creationMillis()).isEqualTo(creationMillis);
        assertThat(request.priority()).isEqualTo(priority);
        assertThat(WorkloadDecoder.active(workload)).isEqualTo(active);
    }
}
