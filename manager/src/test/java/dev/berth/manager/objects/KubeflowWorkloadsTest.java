package dev.berth.manager.objects;

import static dev.berth.manager.objects.YamlObjects.yaml;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.protocol.KubeflowJobKind;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Kueue's pod sets and priority for PyTorchJob and MPIJob (kubeflowjob.PodSets, mpijob.PodSets, PriorityClass), one row a rule. */
class KubeflowWorkloadsTest {
    private static final YamlObjects.Catalogue PRIORITIES = YamlObjects.Catalogue.NO_DEFAULT;

    static String replica(String type, String replicasLine, String priorityClass) {
        return """
                    %s:
                %s
                      template:
                        spec:
                          %s
                          containers:
                          - name: c
                            resources: {requests: {cpu: "1", nvidia.com/gpu: "2"}}
                """.formatted(type, replicasLine.isEmpty() ? "" : "      " + replicasLine,
                priorityClass == null ? "" : "priorityClassName: " + priorityClass);
    }

    static String job(KubeflowJobKind kind, String labels, String runPolicy, String replicas) {
        return """
                apiVersion: %s
                kind: %s
                metadata:
                  name: train
                  namespace: team-a
                  uid: uid-1
                  labels: {kueue.x-k8s.io/queue-name: lq%s}
                spec:
                  runPolicy: {%s}
                  %s:
                %s""".formatted(kind.apiVersion(), kind.kind(), labels, runPolicy, kind.replicaSpecsField(), replicas);
    }

    static Stream<Arguments> podSets() {
        return Stream.of(
                Arguments.of("PyTorchJob: master then worker, lower case", KubeflowJobKind.PYTORCH_JOB,
                        replica("Worker", "replicas: 3", null) + replica("Master", "replicas: 1", null), "master=1,worker=3"),
                Arguments.of("PyTorchJob: replicas default to one", KubeflowJobKind.PYTORCH_JOB,
                        replica("Master", "", null) + replica("Worker", "", null), "master=1,worker=1"),
                Arguments.of("PyTorchJob: workers alone (elastic) are one pod set", KubeflowJobKind.PYTORCH_JOB,
                        replica("Worker", "replicas: 4", null), "worker=4"),
                Arguments.of("MPIJob: launcher then worker", KubeflowJobKind.MPI_JOB,
                        replica("Worker", "replicas: 2", null) + replica("Launcher", "replicas: 1", null), "launcher=1,worker=2"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("podSets")
    void podSetsPerReplicaTypeInKueuesOrder(String behaviour, KubeflowJobKind kind, String replicas, String expected) {
        ObjectNode workload = KubeflowWorkloads.from(kind, yaml(job(kind, "", "", replicas)), PRIORITIES);

        java.util.List<String> podSets = new java.util.ArrayList<>();
        for (JsonNode podSet : workload.path("spec").path("podSets")) podSets.add(podSet.path("name").asText() + "=" + podSet.path("count").asInt());
        assertThat(String.join(",", podSets)).isEqualTo(expected);
        JsonNode owner = workload.path("metadata").path("ownerReferences").get(0);
        assertThat(owner.path("kind").asText()).isEqualTo(kind.kind());
        assertThat(owner.path("apiVersion").asText()).isEqualTo(kind.apiVersion());
        assertThat(owner.path("controller").asBoolean()).isTrue();
        assertThat(workload.path("metadata").path("name").asText()).startsWith(kind.kind().toLowerCase() + "-train-");
        assertThat(workload.path("spec").path("queueName").asText()).isEqualTo("lq");
    }

    @Test
    void theSchedulingPolicysPriorityClassComesBeforeTheTemplates() {
        ObjectNode workload = KubeflowWorkloads.from(KubeflowJobKind.PYTORCH_JOB, yaml(job(KubeflowJobKind.PYTORCH_JOB, "",
                "schedulingPolicy: {priorityClass: batch}", replica("Master", "", "standard") + replica("Worker", "", null))), PRIORITIES);

        assertThat(workload.path("spec").path("priorityClassRef").path("name").asText()).isEqualTo("batch");
        assertThat(workload.path("spec").path("priority").asInt()).isEqualTo(100);
    }

    @Test
    void withoutASchedulingPolicyTheFirstReplicaTemplateNamingAClassCounts() {
        ObjectNode workload = KubeflowWorkloads.from(KubeflowJobKind.MPI_JOB, yaml(job(KubeflowJobKind.MPI_JOB, "", "",
                replica("Launcher", "", null) + replica("Worker", "", "standard"))), PRIORITIES);

        assertThat(workload.path("spec").path("priorityClassRef").path("name").asText()).isEqualTo("standard");
        assertThat(workload.path("spec").path("priority").asInt()).isEqualTo(10);
    }

    @Test
    void theWorkloadPriorityClassLabelBeatsTheSchedulingPolicy() {
        ObjectNode workload = KubeflowWorkloads.from(KubeflowJobKind.PYTORCH_JOB, yaml(job(KubeflowJobKind.PYTORCH_JOB,
                ", kueue.x-k8s.io/priority-class: high", "schedulingPolicy: {priorityClass: batch}", replica("Master", "", null))), PRIORITIES);

        assertThat(workload.path("spec").path("priority").asInt()).isEqualTo(1000);
    }

    static Stream<Arguments> invalid() {
        return Stream.of(
                Arguments.of("no replica specs", KubeflowJobKind.PYTORCH_JOB, "", "", "spec.pytorchReplicaSpecs"),
                Arguments.of("a replica type the operator does not know", KubeflowJobKind.PYTORCH_JOB, "",
                        replica("Chief", "", null), "spec.pytorchReplicaSpecs[Chief]"),
                Arguments.of("two masters", KubeflowJobKind.PYTORCH_JOB, "", replica("Master", "replicas: 2", null),
                        "spec.pytorchReplicaSpecs[Master].replicas"),
                Arguments.of("negative replicas", KubeflowJobKind.PYTORCH_JOB, "", replica("Worker", "replicas: -1", null),
                        "spec.pytorchReplicaSpecs[Worker].replicas"),
                Arguments.of("a replica without a template", KubeflowJobKind.PYTORCH_JOB, "", "    Worker: {replicas: 1}\n",
                        "spec.pytorchReplicaSpecs[Worker].template"),
                Arguments.of("an MPIJob without a launcher", KubeflowJobKind.MPI_JOB, "", replica("Worker", "", null),
                        "spec.mpiReplicaSpecs[Launcher]"),
                Arguments.of("an unknown scheduling priority class", KubeflowJobKind.MPI_JOB, "schedulingPolicy: {priorityClass: nope}",
                        replica("Launcher", "", null), "spec.runPolicy.schedulingPolicy.priorityClass"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalid")
    void refusalsNameTheField(String behaviour, KubeflowJobKind kind, String runPolicy, String replicas, String field) {
        InvalidObjectException refused = catchThrowableOfType(InvalidObjectException.class,
                () -> KubeflowWorkloads.from(kind, yaml(job(kind, "", runPolicy, replicas.isEmpty() ? "    {}\n" : replicas)), PRIORITIES));

        assertThat(refused).as(behaviour).isNotNull();
        assertThat(refused.httpStatus()).isEqualTo(422);
        assertThat(YamlObjects.fields(refused)).contains(field);
    }
}
