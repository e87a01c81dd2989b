package dev.berth.manager.objects;

import static dev.berth.manager.objects.YamlObjects.yaml;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every refusal is a 422 whose causes name the offending fields, all of them at once. */
class InvalidObjectsTest {

    enum Source {
        JOB, JOBSET, POD, POD_GROUP, WORKLOAD;

        void submit(String text) {
            ObjectNode object = yaml(text);
            switch (this) {
                case JOB -> WorkloadFactory.fromJob(object, YamlObjects.Catalogue.NO_DEFAULT);
                case JOBSET -> WorkloadFactory.fromJobSet(object, YamlObjects.Catalogue.NO_DEFAULT);
                case POD -> WorkloadFactory.fromSinglePod(object, YamlObjects.Catalogue.NO_DEFAULT);
                case POD_GROUP -> {
                    List<ObjectNode> pods = new ArrayList<>();
                    for (JsonNode pod : object.path("pods")) pods.add((ObjectNode) pod);
                    WorkloadFactory.fromPodGroup("g", pods, YamlObjects.Catalogue.NO_DEFAULT);
                }
                case WORKLOAD -> WorkloadFactory.normalizeWorkload(object, YamlObjects.Catalogue.NO_DEFAULT);
            }
        }
    }

    static String job(String annotations, String labels, String spec) {
        return """
                kind: Job
                metadata: {name: j, namespace: ns, annotations: {%s}, labels: {%s}}
                spec:
                  parallelism: 3
                %s
                """.formatted(annotations, labels, spec);
    }

    private static final String JOB_TEMPLATE = "  template: {spec: {containers: [{name: c}]}}";

    static String podInGroup(String name, String queue, String total) {
        return "{metadata: {name: %s, labels: {kueue.x-k8s.io/pod-group-name: g, kueue.x-k8s.io/queue-name: %s}, annotations: {kueue.x-k8s.io/pod-group-total-count: \"%s\"}}, spec: {containers: [{name: c}]}}"
                .formatted(name, queue, total);
    }

    static String workload(String podSets, String extraSpec) {
        return """
                kind: Workload
                metadata: {name: w, namespace: ns}
                spec:
                  queueName: lq
                  podSets: %s
                %s
                """.formatted(podSets, extraSpec);
    }

    static String podSet(String name, String countLines) {
        return "{name: %s, %s template: {spec: {containers: [{name: c}]}}}".formatted(name, countLines);
    }

    static Stream<Arguments> refusals() {
        String minParallelism = "metadata.annotations[kueue.x-k8s.io/job-min-parallelism]";
        String totalCount = "metadata.annotations[kueue.x-k8s.io/pod-group-total-count]";
        String nine = "[" + String.join(", ", Stream.of("a", "b", "c", "d", "e", "f", "g", "h", "i").map(n -> podSet(n, "")).toList()) + "]";
        return Stream.of(
                Arguments.of("job min-parallelism that is not a number", Source.JOB,
                        job("kueue.x-k8s.io/job-min-parallelism: two", "", JOB_TEMPLATE), List.of(minParallelism)),
                Arguments.of("job min-parallelism of zero", Source.JOB,
                        job("kueue.x-k8s.io/job-min-parallelism: \"0\"", "", JOB_TEMPLATE), List.of(minParallelism)),
                Arguments.of("job min-parallelism not below the count", Source.JOB,
                        job("kueue.x-k8s.io/job-min-parallelism: \"3\"", "", JOB_TEMPLATE), List.of(minParallelism)),
                Arguments.of("job naming an unknown WorkloadPriorityClass", Source.JOB,
                        job("", "kueue.x-k8s.io/priority-class: nope", JOB_TEMPLATE), List.of("metadata.labels[kueue.x-k8s.io/priority-class]")),
                Arguments.of("job template naming an unknown PriorityClass", Source.JOB,
                        job("", "", "  template: {spec: {priorityClassName: nope, containers: [{name: c}]}}"), List.of("spec.template.spec.priorityClassName")),
                Arguments.of("job without containers", Source.JOB,
                        job("", "", "  template: {spec: {containers: []}}"), List.of("spec.template.spec.containers")),
                Arguments.of("job with an unreadable request", Source.JOB,
                        job("", "", "  template: {spec: {containers: [{name: c, resources: {requests: {cpu: much}}}]}}"),
                        List.of("spec.template.spec.containers[0].resources.requests.cpu")),
                Arguments.of("job parallelism that is not an integer", Source.JOB,
                        job("", "", "  completions: x\n" + JOB_TEMPLATE), List.of("spec.completions")),
                Arguments.of("job with several problems reports them all", Source.JOB,
                        job("kueue.x-k8s.io/job-min-parallelism: \"5\"", "kueue.x-k8s.io/priority-class: nope", "  template: {spec: {containers: []}}"),
                        List.of(minParallelism, "spec.template.spec.containers", "metadata.labels[kueue.x-k8s.io/priority-class]")),
                Arguments.of("jobset template naming an unknown PriorityClass", Source.JOBSET, """
                        kind: JobSet
                        metadata: {name: js}
                        spec:
                          replicatedJobs:
                          - {name: a, template: {spec: {template: {spec: {containers: [{name: c}]}}}}}
                          - {name: b, template: {spec: {template: {spec: {priorityClassName: nope, containers: [{name: c}]}}}}}
                        """, List.of("spec.replicatedJobs[1].template.spec.template.spec.priorityClassName")),
                Arguments.of("jobset with a replicated job name that is not a DNS label", Source.JOBSET, """
                        kind: JobSet
                        metadata: {name: js}
                        spec:
                          replicatedJobs:
                          - {name: Bad_Name, replicas: -1, template: {spec: {template: {spec: {containers: [{name: c}]}}}}}
                        """, List.of("spec.replicatedJobs[0].name", "spec.replicatedJobs[0].replicas")),
                Arguments.of("jobset without replicated jobs", Source.JOBSET,
                        "{kind: JobSet, metadata: {name: js}, spec: {}}", List.of("spec.replicatedJobs")),
                Arguments.of("pod naming an unknown PriorityClass", Source.POD,
                        "{kind: Pod, metadata: {name: p}, spec: {priorityClassName: nope, containers: [{name: c}]}}", List.of("spec.priorityClassName")),
                Arguments.of("pod group with fewer pods than its total count", Source.POD_GROUP,
                        "pods: [%s, %s]".formatted(podInGroup("p1", "lq", "3"), podInGroup("p2", "lq", "3")), List.of(totalCount)),
                Arguments.of("pod group whose pods disagree on the total count", Source.POD_GROUP,
                        "pods: [%s, %s]".formatted(podInGroup("p1", "lq", "2"), podInGroup("p2", "lq", "3")), List.of(totalCount)),
                Arguments.of("pod group whose pods disagree on the queue", Source.POD_GROUP,
                        "pods: [%s, %s]".formatted(podInGroup("p1", "lq", "2"), podInGroup("p2", "other", "2")),
                        List.of("metadata.labels[kueue.x-k8s.io/queue-name]")),
                Arguments.of("workload without pod sets", Source.WORKLOAD, workload("[]", ""), List.of("spec.podSets")),
                Arguments.of("workload with nine pod sets", Source.WORKLOAD, workload(nine, ""), List.of("spec.podSets")),
                Arguments.of("workload with a duplicate pod set name", Source.WORKLOAD,
                        workload("[%s, %s]".formatted(podSet("a", ""), podSet("a", "")), ""), List.of("spec.podSets[1].name")),
                Arguments.of("workload with a pod set name that is not a DNS label", Source.WORKLOAD,
                        workload("[%s]".formatted(podSet("Main", "")), ""), List.of("spec.podSets[0].name")),
                Arguments.of("workload with a negative count", Source.WORKLOAD,
                        workload("[%s]".formatted(podSet("a", "count: -1,")), ""), List.of("spec.podSets[0].count")),
                Arguments.of("workload with a fractional count", Source.WORKLOAD,
                        workload("[%s]".formatted(podSet("a", "count: 1.5,")), ""), List.of("spec.podSets[0].count")),
                Arguments.of("workload with minCount of zero", Source.WORKLOAD,
                        workload("[%s]".formatted(podSet("a", "count: 2, minCount: 0,")), ""), List.of("spec.podSets[0].minCount")),
                Arguments.of("workload with minCount above count", Source.WORKLOAD,
                        workload("[%s]".formatted(podSet("a", "count: 2, minCount: 3,")), ""), List.of("spec.podSets[0].minCount")),
                Arguments.of("workload pod set without containers", Source.WORKLOAD,
                        workload("[{name: a, template: {spec: {containers: []}}}]", ""), List.of("spec.podSets[0].template.spec.containers")),
                Arguments.of("workload pod set with an unreadable request", Source.WORKLOAD,
                        workload("[{name: a, template: {spec: {containers: [{name: x}, {name: c, resources: {requests: {cpu: x}}}]}}}]", ""),
                        List.of("spec.podSets[0].template.spec.containers[1].resources.requests.cpu")),
                Arguments.of("workload priorityClassRef of an unsupported kind", Source.WORKLOAD,
                        workload("[%s]".formatted(podSet("a", "")), "  priorityClassRef: {group: apps, kind: Deployment, name: x}"),
                        List.of("spec.priorityClassRef")),
                Arguments.of("workload priorityClassRef naming an unknown WorkloadPriorityClass", Source.WORKLOAD,
                        workload("[%s]".formatted(podSet("a", "")), "  priorityClassRef: {group: kueue.x-k8s.io, kind: WorkloadPriorityClass, name: nope}"),
                        List.of("spec.priorityClassRef.name")),
                Arguments.of("workload priorityClassRef naming an unknown PriorityClass", Source.WORKLOAD,
                        workload("[%s]".formatted(podSet("a", "")), "  priorityClassRef: {group: scheduling.k8s.io, kind: PriorityClass, name: nope}"),
                        List.of("spec.priorityClassRef.name")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusals")
    void refusedWithFieldPaths(String behaviour, Source source, String text, List<String> fields) {
        InvalidObjectException refusal = catchThrowableOfType(InvalidObjectException.class, () -> source.submit(text));

        assertThat(refusal).as("refused").isNotNull();
        assertThat(refusal.httpStatus()).isEqualTo(422);
        assertThat(refusal.reason()).isEqualTo("Invalid");
        assertThat(YamlObjects.fields(refusal)).containsExactlyInAnyOrderElementsOf(fields);
        assertThat(refusal.getMessage()).contains(fields.get(0));
    }
}
