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
 * Kueue's pod sets for an AppWrapper (AppWrapper.PodSets over the AppWrapper library's declared and inferred
 * pod sets) and the AppWrapper webhook's refusals, one row a rule.
 */
class AppWrapperWorkloadsTest {
    private static final YamlObjects.Catalogue PRIORITIES = YamlObjects.Catalogue.NO_DEFAULT;

    static String appWrapper(String components) {
        return """
                apiVersion: workload.codeflare.dev/v1beta2
                kind: AppWrapper
                metadata:
                  name: aw
                  namespace: team-a
                  uid: uid-1
                  labels: {kueue.x-k8s.io/queue-name: lq}
                spec:
                  components:
                %s""".formatted(components);
    }

    /** A component wrapping a batch Job; podSets is the YAML of its declared pod sets, or empty. */
    static String job(String podSets, String jobFields, String podSpecExtra) {
        return """
                  - %s
                    template:
                      apiVersion: batch/v1
                      kind: Job
                      metadata: {name: j}
                      spec:
                        %s
                        template:
                          spec:
                            %s
                            restartPolicy: Never
                            containers:
                            - name: c
                              resources: {requests: {cpu: "1", nvidia.com/gpu: "1"}}
                """.formatted(podSets.isEmpty() ? "annotations: {}" : podSets, jobFields.isEmpty() ? "{}" : jobFields, podSpecExtra)
                .replace("spec:\n        {}\n", "spec:\n");
    }

    static String pod(String podSets) {
        return """
                  - %s
                    template:
                      apiVersion: v1
                      kind: Pod
                      metadata: {name: p, labels: {team: a}}
                      spec:
                        containers:
                        - name: c
                          resources: {requests: {cpu: "2"}}
                """.formatted(podSets.isEmpty() ? "annotations: {}" : podSets);
    }

    static String pyTorchJob(String podSets) {
        return """
                  - %s
                    template:
                      apiVersion: kubeflow.org/v1
                      kind: PyTorchJob
                      metadata: {name: pt}
                      spec:
                        pytorchReplicaSpecs:
                          Master:
                            replicas: 1
                            template:
                              spec:
                                containers: [{name: pytorch, resources: {requests: {cpu: "1"}}}]
                          Worker:
                            replicas: 3
                            template:
                              spec:
                                containers: [{name: pytorch, resources: {requests: {cpu: "1"}}}]
                """.formatted(podSets.isEmpty() ? "annotations: {}" : podSets);
    }

    static String service() {
        return """
                  - template:
                      apiVersion: v1
                      kind: Service
                      metadata: {name: s}
                      spec: {ports: [{port: 80}]}
                """;
    }

    static Stream<Arguments> podSets() {
        return Stream.of(
                Arguments.of("a declared pod set counts its replicas, named by the AppWrapper and its index",
                        appWrapper(job("podSets: [{replicas: 2, path: template.spec.template}]", "parallelism: 2", "")), "aw-0=2"),
                Arguments.of("declared replicas default to one",
                        appWrapper(job("podSets: [{path: template.spec.template}]", "", "")), "aw-0=1"),
                Arguments.of("a Job's pod set is inferred when none is declared: min(parallelism, completions)",
                        appWrapper(job("", "parallelism: 4\n        completions: 3", "")), "aw-0=3"),
                Arguments.of("a PyTorchJob's inferred pod sets: Master, then Worker",
                        appWrapper(pyTorchJob("")), "aw-0=1,aw-1=3"),
                Arguments.of("pod sets are indexed across components in order; a Service adds none",
                        appWrapper(pod("") + service() + job("podSets: [{replicas: 2, path: template.spec.template}]", "parallelism: 2", "")),
                        "aw-0=1,aw-1=2"),
                Arguments.of("a component of a kind the webhook does not know counts what it declares",
                        appWrapper("""
                                  - podSets: [{replicas: 4, path: template.spec.worker.template}]
                                    template:
                                      apiVersion: example.com/v1
                                      kind: Trainer
                                      metadata: {name: t}
                                      spec:
                                        worker:
                                          template:
                                            spec: {containers: [{name: c, resources: {requests: {cpu: "1"}}}]}
                                """), "aw-0=4"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("podSets")
    void podSetsAsKueueDerivesThem(String behaviour, String object, String expected) {
        ObjectNode workload = AppWrapperWorkloads.from(yaml(object), PRIORITIES);

        assertThat(String.join(",", podSets(workload))).as(behaviour).isEqualTo(expected);
        JsonNode owner = workload.path("metadata").path("ownerReferences").get(0);
        assertThat(owner.path("kind").asText()).isEqualTo("AppWrapper");
        assertThat(owner.path("apiVersion").asText()).isEqualTo("workload.codeflare.dev/v1beta2");
        assertThat(workload.path("metadata").path("name").asText()).startsWith("appwrapper-aw-");
        assertThat(workload.path("spec").path("queueName").asText()).isEqualTo("lq");
    }

    @Test
    void thePodSetTemplateIsTheOneAtThePathWithItsRequests() {
        ObjectNode workload = AppWrapperWorkloads.from(yaml(appWrapper(pod(""))), PRIORITIES);

        JsonNode template = workload.path("spec").path("podSets").path(0).path("template");
        assertThat(template.path("metadata").path("labels").path("team").asText()).isEqualTo("a");
        assertThat(template.path("spec").path("containers").path(0).path("resources").path("requests").path("cpu").asText()).isEqualTo("2");
    }

    @Test
    void inferredPodSetsAreWrittenIntoComponentsThatDeclareNone() {
        ObjectNode object = yaml(appWrapper(pyTorchJob("") + job("podSets: [{replicas: 1, path: template.spec.template}]", "", "")));

        AppWrapperPodSets.declareInferred(object);

        JsonNode components = object.path("spec").path("components");
        assertThat(components.path(0).path("podSets").toString()).isEqualTo(
                "[{\"replicas\":1,\"path\":\"template.spec.pytorchReplicaSpecs.Master.template\"},"
                        + "{\"replicas\":3,\"path\":\"template.spec.pytorchReplicaSpecs.Worker.template\"}]");
        assertThat(components.path(1).path("podSets").toString()).isEqualTo("[{\"replicas\":1,\"path\":\"template.spec.template\"}]");
    }

    @Test
    void theFirstPodSetNamingAPriorityClassGivesThePriority() {
        ObjectNode workload = AppWrapperWorkloads.from(yaml(appWrapper(pod("")
                + job("podSets: [{path: template.spec.template}]", "", "priorityClassName: standard"))), PRIORITIES);

        assertThat(workload.path("spec").path("priorityClassRef").path("name").asText()).isEqualTo("standard");
        assertThat(workload.path("spec").path("priority").asInt()).isEqualTo(10);
    }

    static Stream<Arguments> invalid() {
        return Stream.of(
                Arguments.of("no components", appWrapper("    []\n"), "spec.components"),
                Arguments.of("a component without a template", appWrapper("  - podSets: [{path: template}]\n"), "spec.components[0].template"),
                Arguments.of("nothing to admit (only a Service)", appWrapper(service()), "spec.components"),
                Arguments.of("a path that does not start at template",
                        appWrapper(job("podSets: [{replicas: 1, path: spec.template}]", "", "")), "spec.components[0].podSets[0].path"),
                Arguments.of("a path that leads nowhere",
                        appWrapper(job("podSets: [{replicas: 1, path: template.spec.templates}]", "", "")), "spec.components[0].podSets"),
                Arguments.of("two pod sets of one path", appWrapper(job(
                        "podSets: [{replicas: 1, path: template.spec.template}, {replicas: 1, path: template.spec.template}]", "", "")),
                        "spec.components[0].podSets[1].path"),
                Arguments.of("declared replicas that differ from the inferred ones",
                        appWrapper(job("podSets: [{replicas: 5, path: template.spec.template}]", "parallelism: 2", "")),
                        "spec.components[0].podSets[0].replicas"),
                Arguments.of("negative replicas", appWrapper("""
                          - podSets: [{replicas: -1, path: template.spec.worker.template}]
                            template:
                              apiVersion: example.com/v1
                              kind: Trainer
                              metadata: {name: t}
                              spec: {worker: {template: {spec: {containers: [{name: c}]}}}}
                        """), "spec.components[0].podSets[0].replicas"),
                Arguments.of("a path to something that is not a pod template", appWrapper("""
                          - podSets: [{path: template.spec.worker}]
                            template:
                              apiVersion: example.com/v1
                              kind: Trainer
                              metadata: {name: t}
                              spec: {worker: {replicas: 2}}
                        """), "spec.components[0].podSets[0].path"),
                Arguments.of("more than eight pod sets", appWrapper(pod("").repeat(9)), "spec.components"),
                Arguments.of("a pod set template without containers", appWrapper("""
                          - podSets: [{path: template.spec.worker.template}]
                            template:
                              apiVersion: example.com/v1
                              kind: Trainer
                              metadata: {name: t}
                              spec: {worker: {template: {spec: {containers: []}}}}
                        """), "spec.components[0].template.spec.worker.template.spec.containers"),
                Arguments.of("an unknown priority class", appWrapper(job("", "", "priorityClassName: nope")),
                        "spec.components[0].template.spec.template.spec.priorityClassName"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalid")
    void refusalsNameTheField(String behaviour, String object, String field) {
        InvalidObjectException refused = catchThrowableOfType(InvalidObjectException.class,
                () -> AppWrapperWorkloads.from(yaml(object), PRIORITIES));

        assertThat(refused).as(behaviour).isNotNull();
        assertThat(refused.httpStatus()).isEqualTo(422);
        assertThat(YamlObjects.fields(refused)).as(behaviour).contains(field);
    }

    private static List<String> podSets(JsonNode workload) {
        List<String> podSets = new ArrayList<>();
        for (JsonNode podSet : workload.path("spec").path("podSets")) podSets.add(podSet.path("name").asText() + "=" + podSet.path("count").asInt());
        return podSets;
    }
}
