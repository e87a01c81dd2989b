package dev.berth.manager.objects;

import static dev.berth.manager.objects.YamlObjects.yaml;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.protocol.TrainerApi;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A TrainJob's pod sets as Kueue's trainjob integration derives them: the JobSet the Trainer builds from the
 * named runtime (numNodes as the trainer step's parallelism, resourcesPerNode on its node container), then one
 * pod set per replicatedJob; one row a rule.
 */
class TrainJobWorkloadsTest {
    private static final YamlObjects.Catalogue PRIORITIES = YamlObjects.Catalogue.NO_DEFAULT;

    /** A runtime with a one-pod initializer step and the trainer step "node" (numNodes 1 unless the runtime says). */
    static ObjectNode runtime(String kind, String mlPolicy, String nodeExtra) {
        return yaml("""
                apiVersion: trainer.kubeflow.org/v1alpha1
                kind: %s
                metadata: {name: torch, namespace: team-a}
                spec:
                  %s
                  template:
                    spec:
                      replicatedJobs:
                      - name: dataset-initializer
                        template:
                          spec:
                            template:
                              spec:
                                containers:
                                - name: dataset-initializer
                                  resources: {requests: {cpu: "1"}}
                      - name: node
                        %s
                        template:
                          metadata:
                            labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}
                          spec:
                            template:
                              spec:
                                containers:
                                - name: node
                                  resources: {requests: {cpu: "4"}}
                                - name: sidecar
                                  resources: {requests: {cpu: "1"}}
                """.formatted(kind, mlPolicy, nodeExtra));
    }

    static ObjectNode trainJob(String runtimeRef, String trainer) {
        return yaml("""
                apiVersion: trainer.kubeflow.org/v1alpha1
                kind: TrainJob
                metadata:
                  name: tj
                  namespace: team-a
                  uid: uid-1
                  labels: {kueue.x-k8s.io/queue-name: lq}
                spec:
                  runtimeRef: %s
                  %s
                """.formatted(runtimeRef, trainer));
    }

    private static TrainJobWorkloads.Runtimes only(ObjectNode runtime) {
        return (kind, namespace, name) -> kind.kind().equals(runtime.path("kind").asText())
                && name.equals(runtime.path("metadata").path("name").asText())
                && (!kind.namespaced() || namespace.equals(runtime.path("metadata").path("namespace").asText()))
                ? Optional.of(runtime) : Optional.empty();
    }

    static Stream<Arguments> podSets() {
        ObjectNode cluster = runtime("ClusterTrainingRuntime", "mlPolicy: {numNodes: 3}", "");
        return Stream.of(
                Arguments.of("numNodes sets the trainer step's pod count",
                        trainJob("{name: torch}", "trainer: {numNodes: 4}"), cluster, "dataset-initializer=1,node=4"),
                Arguments.of("without numNodes the runtime's mlPolicy.numNodes counts",
                        trainJob("{name: torch}", ""), cluster, "dataset-initializer=1,node=3"),
                Arguments.of("without either the runtime's template counts (one pod)",
                        trainJob("{name: torch}", ""), runtime("ClusterTrainingRuntime", "", ""), "dataset-initializer=1,node=1"),
                Arguments.of("replicas of the trainer step multiply numNodes",
                        trainJob("{name: torch}", "trainer: {numNodes: 2}"), runtime("ClusterTrainingRuntime", "", "replicas: 2"),
                        "dataset-initializer=1,node=4"),
                Arguments.of("a namespaced TrainingRuntime in the TrainJob's namespace",
                        trainJob("{name: torch, kind: TrainingRuntime}", "trainer: {numNodes: 2}"), runtime("TrainingRuntime", "", ""),
                        "dataset-initializer=1,node=2"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("podSets")
    void podSetsAsKueueDerivesThem(String behaviour, ObjectNode job, ObjectNode runtime, String expected) {
        ObjectNode workload = TrainJobWorkloads.from(job, only(runtime), PRIORITIES);

        assertThat(String.join(",", podSets(workload))).isEqualTo(expected);
        JsonNode owner = workload.path("metadata").path("ownerReferences");
        assertThat(owner).hasSize(1);
        assertThat(owner.get(0).path("kind").asText()).isEqualTo("TrainJob");
        assertThat(owner.get(0).path("apiVersion").asText()).isEqualTo("trainer.kubeflow.org/v1alpha1");
        assertThat(owner.get(0).path("uid").asText()).isEqualTo("uid-1");
        assertThat(workload.path("metadata").path("name").asText()).startsWith("trainjob-tj-");
        assertThat(workload.path("spec").path("queueName").asText()).isEqualTo("lq");
    }

    @Test
    void resourcesPerNodeReplaceTheNodeContainersResourcesOnlyInTheTrainerStep() {
        ObjectNode job = trainJob("{name: torch}", "trainer: {numNodes: 2, resourcesPerNode: {requests: {cpu: \"8\", nvidia.com/gpu: \"1\"}}}");

        ObjectNode workload = TrainJobWorkloads.from(job, only(runtime("ClusterTrainingRuntime", "", "")), PRIORITIES);

        JsonNode node = workload.path("spec").path("podSets").path(1).path("template").path("spec").path("containers");
        assertThat(node.path(0).path("resources").path("requests")).isEqualTo(yaml("{cpu: \"8\", nvidia.com/gpu: \"1\"}"));
        assertThat(node.path(1).path("resources").path("requests").path("cpu").asText()).as("other containers keep theirs").isEqualTo("1");
        JsonNode initializer = workload.path("spec").path("podSets").path(0).path("template").path("spec").path("containers").path(0);
        assertThat(initializer.path("resources").path("requests").path("cpu").asText()).isEqualTo("1");
    }

    @Test
    void theTrainJobsPriorityClassLabelCounts() {
        ObjectNode job = trainJob("{name: torch}", "");
        ((ObjectNode) job.path("metadata").path("labels")).put("kueue.x-k8s.io/priority-class", "high");

        ObjectNode workload = TrainJobWorkloads.from(job, only(runtime("ClusterTrainingRuntime", "", "")), PRIORITIES);

        assertThat(workload.path("spec").path("priority").asInt()).isEqualTo(1000);
    }

    @Test
    void theChildJobSetIsTheRuntimesTemplateWithTheTrainJobsMetadata() {
        ObjectNode jobSet = TrainJobWorkloads.childJobSet(trainJob("{name: torch}", "trainer: {numNodes: 5}"),
                runtime("ClusterTrainingRuntime", "", ""));

        assertThat(jobSet.path("kind").asText()).isEqualTo("JobSet");
        assertThat(jobSet.path("metadata").path("name").asText()).isEqualTo("tj");
        JsonNode node = jobSet.path("spec").path("replicatedJobs").path(1).path("template").path("spec");
        assertThat(node.path("parallelism").asInt()).isEqualTo(5);
        assertThat(node.path("completions").asInt()).isEqualTo(5);
        assertThat(jobSet.path("spec").path("replicatedJobs").path(0).path("template").path("spec").has("parallelism")).isFalse();
    }

    static Stream<Arguments> invalid() {
        ObjectNode cluster = runtime("ClusterTrainingRuntime", "", "");
        return Stream.of(
                Arguments.of("a runtime that does not exist", trainJob("{name: missing}", ""), cluster, "spec.runtimeRef.name"),
                Arguments.of("a TrainingRuntime where only a ClusterTrainingRuntime of that name exists",
                        trainJob("{name: torch, kind: TrainingRuntime}", ""), cluster, "spec.runtimeRef.name"),
                Arguments.of("a TrainingRuntime in another namespace", trainJob("{name: torch, kind: TrainingRuntime}", ""),
                        yaml(runtime("TrainingRuntime", "", "").toString().replace("team-a", "team-b")), "spec.runtimeRef.name"),
                Arguments.of("no runtime named", trainJob("{}", ""), cluster, "spec.runtimeRef.name"),
                Arguments.of("a runtime kind the Trainer does not have", trainJob("{name: torch, kind: Runtime}", ""), cluster,
                        "spec.runtimeRef.kind"),
                Arguments.of("a runtime of another API group", trainJob("{name: torch, apiGroup: example.com}", ""), cluster,
                        "spec.runtimeRef.apiGroup"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalid")
    void refusalsNameTheField(String behaviour, ObjectNode job, ObjectNode runtime, String field) {
        InvalidObjectException refused = catchThrowableOfType(InvalidObjectException.class,
                () -> TrainJobWorkloads.from(job, only(runtime), PRIORITIES));

        assertThat(refused).as(behaviour).isNotNull();
        assertThat(refused.httpStatus()).isEqualTo(422);
        assertThat(YamlObjects.fields(refused)).contains(field);
    }

    @Test
    void runtimeKindsDefaultToTheClusterScopedOne() {
        assertThat(TrainerApi.runtimeKind(null)).contains(TrainerApi.CLUSTER_TRAINING_RUNTIME_KIND);
        assertThat(TrainerApi.runtimeKind("TrainingRuntime")).contains(TrainerApi.TRAINING_RUNTIME_KIND);
    }

    private static List<String> podSets(JsonNode workload) {
        List<String> podSets = new ArrayList<>();
        for (JsonNode podSet : workload.path("spec").path("podSets")) podSets.add(podSet.path("name").asText() + "=" + podSet.path("count").asInt());
        return podSets;
    }
}
