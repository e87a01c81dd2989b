package dev.berth.manager.objects;

import static dev.berth.manager.objects.YamlObjects.yaml;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.protocol.ServingKind;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Kueue's pod sets for the serving kinds (statefulset constructWorkload, leaderworkerset podSets), the whole
 * LeaderWorkerSet as one Workload, priority, and refusals naming the field; one row a rule.
 */
class ServingWorkloadsTest {
    private static final YamlObjects.Catalogue PRIORITIES = YamlObjects.Catalogue.NO_DEFAULT;
    private static final String TEMPLATE = """
            {metadata: {labels: {app: s}}, spec: {%s containers: [{name: c, resources: {requests: {cpu: "1", nvidia.com/gpu: "1"}}}]}}""";

    static String template(String priorityClass) {
        return TEMPLATE.formatted(priorityClass == null ? "" : "priorityClassName: " + priorityClass + ",");
    }

    static String object(ServingKind kind, String labels, String spec) {
        return """
                apiVersion: %s
                kind: %s
                metadata: {name: srv, namespace: team-a, uid: uid-1, labels: {kueue.x-k8s.io/queue-name: lq%s}}
                spec: %s
                """.formatted(kind.apiVersion(), kind.kind(), labels, spec);
    }

    static String lws(String replicas, String size, boolean leader) {
        return "{" + replicas + " leaderWorkerTemplate: {" + size + (leader ? " leaderTemplate: " + template(null) + "," : "")
                + " workerTemplate: " + template(null) + "}}";
    }

    static Stream<Arguments> podSets() {
        return Stream.of(
                Arguments.of("Deployment: one pod set main of its replicas", ServingKind.DEPLOYMENT,
                        "{replicas: 3, template: " + template(null) + "}", "main=3"),
                Arguments.of("Deployment: replicas default to one", ServingKind.DEPLOYMENT, "{template: " + template(null) + "}", "main=1"),
                Arguments.of("StatefulSet: one pod group of its replicas", ServingKind.STATEFUL_SET,
                        "{replicas: 2, serviceName: s, template: " + template(null) + "}", "main=2"),
                Arguments.of("LeaderWorkerSet: leader 1 and worker size-1 for one group", ServingKind.LEADER_WORKER_SET,
                        lws("", "size: 4,", true), "leader=1,worker=3"),
                Arguments.of("LeaderWorkerSet: every group in the one Workload", ServingKind.LEADER_WORKER_SET,
                        lws("replicas: 2,", "size: 3,", true), "leader=2,worker=4"),
                Arguments.of("LeaderWorkerSet without a leader template: main of size", ServingKind.LEADER_WORKER_SET,
                        lws("replicas: 2,", "size: 3,", false), "main=6"),
                Arguments.of("LeaderWorkerSet of size one: the leader alone", ServingKind.LEADER_WORKER_SET,
                        lws("", "size: 1,", true), "leader=1"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("podSets")
    void podSetsAsKueueDerivesThem(String behaviour, ServingKind kind, String spec, String expected) {
        ObjectNode workload = ServingWorkloads.from(kind, yaml(object(kind, "", spec)), PRIORITIES);

        List<String> podSets = new ArrayList<>();
        for (JsonNode podSet : workload.path("spec").path("podSets")) podSets.add(podSet.path("name").asText() + "=" + podSet.path("count").asInt());
        assertThat(String.join(",", podSets)).isEqualTo(expected);
        JsonNode owner = workload.path("metadata").path("ownerReferences").get(0);
        assertThat(owner.path("kind").asText()).isEqualTo(kind.kind());
        assertThat(owner.path("apiVersion").asText()).isEqualTo(kind.apiVersion());
        assertThat(workload.path("metadata").path("name").asText()).startsWith(kind.kind().toLowerCase() + "-srv-");
        assertThat(workload.path("spec").path("queueName").asText()).isEqualTo("lq");
    }

    @Test
    void aWorkloadQueuedAgainAfterAResizeHasANewName() {
        ObjectNode first = yaml(object(ServingKind.DEPLOYMENT, "", "{replicas: 2, template: " + template(null) + "}"));
        ObjectNode resized = first.deepCopy();
        resized.with("metadata").put("generation", 2);
        resized.with("spec").put("replicas", 3);

        String before = ServingWorkloads.from(ServingKind.DEPLOYMENT, first, PRIORITIES).path("metadata").path("name").asText();
        String after = ServingWorkloads.from(ServingKind.DEPLOYMENT, resized, PRIORITIES).path("metadata").path("name").asText();
        assertThat(after).startsWith("deployment-srv-").isNotEqualTo(before);
    }

    @Test
    void theTemplatesPriorityClassAndThenTheWorkloadPriorityLabel() {
        ObjectNode byTemplate = ServingWorkloads.from(ServingKind.STATEFUL_SET,
                yaml(object(ServingKind.STATEFUL_SET, "", "{template: " + template("batch") + "}")), PRIORITIES);
        assertThat(byTemplate.path("spec").path("priority").asInt()).isEqualTo(100);

        ObjectNode byLabel = ServingWorkloads.from(ServingKind.STATEFUL_SET,
                yaml(object(ServingKind.STATEFUL_SET, ", kueue.x-k8s.io/priority-class: high", "{template: " + template("batch") + "}")), PRIORITIES);
        assertThat(byLabel.path("spec").path("priority").asInt()).isEqualTo(1000);
    }

    static Stream<Arguments> invalid() {
        return Stream.of(
                Arguments.of("a Deployment without a template", ServingKind.DEPLOYMENT, "{replicas: 1}", "spec.template"),
                Arguments.of("negative replicas", ServingKind.STATEFUL_SET, "{replicas: -1, template: " + template(null) + "}", "spec.replicas"),
                Arguments.of("a template without containers", ServingKind.DEPLOYMENT, "{template: {spec: {}}}", "spec.template.spec.containers"),
                Arguments.of("a LeaderWorkerSet without its leaderWorkerTemplate", ServingKind.LEADER_WORKER_SET, "{replicas: 1}",
                        "spec.leaderWorkerTemplate"),
                Arguments.of("a LeaderWorkerSet of size zero", ServingKind.LEADER_WORKER_SET, lws("", "size: 0,", true),
                        "spec.leaderWorkerTemplate.size"),
                Arguments.of("an unknown priority class", ServingKind.DEPLOYMENT, "{template: " + template("nope") + "}",
                        "spec.template.spec.priorityClassName"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalid")
    void refusalsNameTheField(String behaviour, ServingKind kind, String spec, String field) {
        InvalidObjectException refused = catchThrowableOfType(InvalidObjectException.class,
                () -> ServingWorkloads.from(kind, yaml(object(kind, "", spec)), PRIORITIES));

        assertThat(refused).as(behaviour).isNotNull();
        assertThat(refused.httpStatus()).isEqualTo(422);
        assertThat(YamlObjects.fields(refused)).contains(field);
    }
}
