package dev.berth.manager.objects;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class ApiVersionConverterTest {

    static Stream<Arguments> conversions() {
        return Stream.of(
                arguments("a v1beta1 cohort field becomes cohortName", """
                        apiVersion: kueue.x-k8s.io/v1beta1
                        kind: ClusterQueue
                        metadata: {name: cq}
                        spec: {cohort: team-ab, namespaceSelector: {}}
                        """, """
                        apiVersion: kueue.x-k8s.io/v1beta2
                        kind: ClusterQueue
                        metadata: {name: cq}
                        spec: {cohortName: team-ab, namespaceSelector: {}}
                        """, List.of("kueue.x-k8s.io/v1beta1 ClusterQueue is deprecated; use kueue.x-k8s.io/v1beta2",
                        "spec.cohort: deprecated, use spec.cohortName")),
                arguments("admission check names become an admission checks strategy", """
                        apiVersion: kueue.x-k8s.io/v1beta1
                        kind: ClusterQueue
                        metadata: {name: cq}
                        spec: {admissionChecks: [prov, audit]}
                        """, """
                        apiVersion: kueue.x-k8s.io/v1beta2
                        kind: ClusterQueue
                        metadata: {name: cq}
                        spec: {admissionChecksStrategy: {admissionChecks: [{name: prov}, {name: audit}]}}
                        """, List.of("kueue.x-k8s.io/v1beta1 ClusterQueue is deprecated; use kueue.x-k8s.io/v1beta2",
                        "spec.admissionChecks: deprecated, use spec.admissionChecksStrategy.admissionChecks")),
                arguments("Borrow and Preempt become MayStopSearch", """
                        apiVersion: kueue.x-k8s.io/v1beta1
                        kind: ClusterQueue
                        metadata: {name: cq}
                        spec: {flavorFungibility: {whenCanBorrow: Borrow, whenCanPreempt: Preempt}}
                        """, """
                        apiVersion: kueue.x-k8s.io/v1beta2
                        kind: ClusterQueue
                        metadata: {name: cq}
                        spec: {flavorFungibility: {whenCanBorrow: MayStopSearch, whenCanPreempt: MayStopSearch}}
                        """, List.of("kueue.x-k8s.io/v1beta1 ClusterQueue is deprecated; use kueue.x-k8s.io/v1beta2",
                        "spec.flavorFungibility.whenCanBorrow: \"Borrow\" is deprecated, use \"MayStopSearch\"",
                        "spec.flavorFungibility.whenCanPreempt: \"Preempt\" is deprecated, use \"MayStopSearch\"")),
                arguments("TryNextFlavor is unchanged", """
                        apiVersion: kueue.x-k8s.io/v1beta1
                        kind: ClusterQueue
                        metadata: {name: cq}
                        spec: {flavorFungibility: {whenCanBorrow: TryNextFlavor}}
                        """, """
                        apiVersion: kueue.x-k8s.io/v1beta2
                        kind: ClusterQueue
                        metadata: {name: cq}
                        spec: {flavorFungibility: {whenCanBorrow: TryNextFlavor}}
                        """, List.of("kueue.x-k8s.io/v1beta1 ClusterQueue is deprecated; use kueue.x-k8s.io/v1beta2")),
                arguments("a cohort's parent becomes parentName", """
                        apiVersion: kueue.x-k8s.io/v1beta1
                        kind: Cohort
                        metadata: {name: research}
                        spec: {parent: org}
                        """, """
                        apiVersion: kueue.x-k8s.io/v1beta2
                        kind: Cohort
                        metadata: {name: research}
                        spec: {parentName: org}
                        """, List.of("kueue.x-k8s.io/v1beta1 Cohort is deprecated; use kueue.x-k8s.io/v1beta2",
                        "spec.parent: deprecated, use spec.parentName")),
                arguments("a workload priority class source becomes a priorityClassRef", """
                        apiVersion: kueue.x-k8s.io/v1beta1
                        kind: Workload
                        metadata: {name: job-1, namespace: team-a}
                        spec: {queueName: main, priorityClassName: high, priorityClassSource: kueue.x-k8s.io/workloadpriorityclass}
                        """, """
                        apiVersion: kueue.x-k8s.io/v1beta2
                        kind: Workload
                        metadata: {name: job-1, namespace: team-a}
                        spec: {queueName: main, priorityClassRef: {group: kueue.x-k8s.io, kind: WorkloadPriorityClass, name: high}}
                        """, List.of("kueue.x-k8s.io/v1beta1 Workload is deprecated; use kueue.x-k8s.io/v1beta2",
                        "spec.priorityClassName: deprecated, use spec.priorityClassRef",
                        "spec.priorityClassSource: deprecated, use spec.priorityClassRef")),
                arguments("a pod priority class source becomes a PriorityClass ref", """
                        apiVersion: kueue.x-k8s.io/v1beta1
                        kind: Workload
                        metadata: {name: job-1, namespace: team-a}
                        spec: {priorityClassName: high, priorityClassSource: scheduling.k8s.io/priorityclass}
                        """, """
                        apiVersion: kueue.x-k8s.io/v1beta2
                        kind: Workload
                        metadata: {name: job-1, namespace: team-a}
                        spec: {priorityClassRef: {group: scheduling.k8s.io, kind: PriorityClass, name: high}}
                        """, List.of("kueue.x-k8s.io/v1beta1 Workload is deprecated; use kueue.x-k8s.io/v1beta2",
                        "spec.priorityClassName: deprecated, use spec.priorityClassRef",
                        "spec.priorityClassSource: deprecated, use spec.priorityClassRef")),
                arguments("other v1beta1 kinds only change version", """
                        apiVersion: kueue.x-k8s.io/v1beta1
                        kind: ResourceFlavor
                        metadata: {name: spot}
                        spec: {nodeLabels: {spot: "true"}}
                        """, """
                        apiVersion: kueue.x-k8s.io/v1beta2
                        kind: ResourceFlavor
                        metadata: {name: spot}
                        spec: {nodeLabels: {spot: "true"}}
                        """, List.of("kueue.x-k8s.io/v1beta1 ResourceFlavor is deprecated; use kueue.x-k8s.io/v1beta2")),
                arguments("v1beta2 objects are untouched", """
                        apiVersion: kueue.x-k8s.io/v1beta2
                        kind: ClusterQueue
                        metadata: {name: cq}
                        spec: {cohort: looks-old}
                        """, """
                        apiVersion: kueue.x-k8s.io/v1beta2
                        kind: ClusterQueue
                        metadata: {name: cq}
                        spec: {cohort: looks-old}
                        """, List.of()),
                arguments("other API groups are untouched", """
                        apiVersion: scheduling.k8s.io/v1
                        kind: PriorityClass
                        metadata: {name: high}
                        value: 10
                        """, """
                        apiVersion: scheduling.k8s.io/v1
                        kind: PriorityClass
                        metadata: {name: high}
                        value: 10
                        """, List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("conversions")
    void converts(String behaviour, String input, String expected, List<String> warnings) {
        ObjectNode object = Yaml.parse(input);

        List<String> actual = ApiVersionConverter.toV1beta2(object);

        assertThat(object).isEqualTo(Yaml.parse(expected));
        assertThat(actual).containsExactlyElementsOf(warnings);
    }

    @org.junit.jupiter.api.Test
    void convertedClusterQueueDecodes() {
        ObjectNode object = Yaml.parse("""
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ClusterQueue
                metadata: {name: cq}
                spec:
                  cohort: team-ab
                  admissionChecks: [prov]
                  flavorFungibility: {whenCanBorrow: Borrow}
                  resourceGroups:
                  - coveredResources: [cpu]
                    flavors:
                    - name: default
                      resources: [{name: cpu, nominalQuota: 9, borrowingLimit: 1}]
                """);

        ApiVersionConverter.toV1beta2(object);

        var cq = ClusterQueueDecoder.decode(object);
        assertThat(cq.cohort()).isEqualTo("team-ab");
        assertThat(cq.admissionChecks()).extracting(dev.berth.manager.model.AdmissionCheckRule::name).containsExactly("prov");
        assertThat(cq.resourceGroups().get(0).flavors().get(0).resources().get(0).borrowingLimit()).isEqualTo(1000L);
    }
}
