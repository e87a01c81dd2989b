package dev.berth.system;

import static dev.berth.system.ManagerHttp.condition;
import static dev.berth.system.SingleWorkerSystem.CLUSTER;
import static dev.berth.system.SingleWorkerSystem.PATIENCE;
import static dev.berth.system.SingleWorkerSystem.podSets;
import static dev.berth.system.SingleWorkerSystem.spec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.manager.testing.NeedsKubectl;
import dev.berth.protocol.Labels;
import dev.berth.protocol.ServingKind;
import dev.berth.virtualcluster.PodInterval;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The serving kinds end to end through the real kubectl: the Deployment, StatefulSet and LeaderWorkerSet
 * examples are created on the manager, admitted as long-running with Kueue's pod sets, dispatched to a virtual
 * A100 cluster whose simulated controllers keep their pods running with each kind's names and labels, mirrored
 * back so {@code kubectl get} on the manager shows the worker's replica counts, rescaled, and deleted.
 */
@NeedsKubectl
class ServingKindsSystemTest {
    @RegisterExtension
    static final SingleWorkerSystem bed = new SingleWorkerSystem("serving");

    @Test
    void aDeploymentServesOnAWorkerNeverFinishesShowsTheWorkersReplicasAndIsReadmittedWhenScaled() throws Exception {
        assertThat(bed.kubectl().run("api-resources", "--api-group=apps").ok().stdout())
                .containsPattern("deployments\\s+deploy\\s+apps/v1\\s+true\\s+Deployment")
                .containsPattern("statefulsets\\s+sts\\s+apps/v1\\s+true\\s+StatefulSet");
        assertThat(bed.kubectl().run("create", "-f", "examples/jobs/deployment.yaml").ok().stdout())
                .contains("deployment.apps/vllm-server created");

        JsonNode queued = await().atMost(PATIENCE).until(() -> bed.api().workloadOfJob("team-a", "vllm-server"), w -> w != null);
        assertThat(podSets(queued)).isEqualTo(Map.of("main", 2));

        GenericKubernetesResource remote = awaitRemote(ServingKind.DEPLOYMENT, "vllm-server");
        String attempt = remote.getMetadata().getLabels().get(Labels.ATTEMPT_ID);
        assertThat(attempt).isNotBlank();
        assertThat(remote.getMetadata().getLabels()).doesNotContainKey(Labels.QUEUE_NAME);
        assertThat(spec(remote)).doesNotContainKey("suspend");

        await().atMost(PATIENCE).until(() -> runningPods("vllm-server-").size() == 2);
        assertThat(runningPods("vllm-server-")).allSatisfy(pod -> {
            assertThat(pod.getMetadata().getName()).matches("vllm-server-[a-z0-9]{10}-[a-z0-9]{5}");
            assertThat(pod.getMetadata().getLabels()).containsKey(ServingKind.POD_TEMPLATE_HASH_LABEL)
                    .containsEntry("app", "vllm-server").containsEntry(Labels.ATTEMPT_ID, attempt);
        });
        await().atMost(PATIENCE).until(() -> bed.kubectl().jsonpath("team-a", "deployment", "vllm-server", ".status.readyReplicas"), "2"::equals);
        JsonNode serving = bed.api().workloadOfJob("team-a", "vllm-server");
        assertThat(condition(serving, "Admitted")).isEqualTo("True");
        assertThat(condition(serving, "Finished")).as("serving is never finished").isNotEqualTo("True");
        assertThat(serving.path("status").path("clusterName").asText()).isEqualTo(CLUSTER);

        String table = bed.kubectl().run("get", "deployments", "-n", "team-a").ok().stdout();
        assertThat(table.lines().findFirst().orElse("")).containsPattern("^NAME\\s+READY\\s+UP-TO-DATE\\s+AVAILABLE\\s+AGE$");
        assertThat(table).containsPattern("vllm-server\\s+2/2\\s+2\\s+2\\s+\\d+s");
        assertThat(bed.kubectl().run("describe", "deployment", "vllm-server", "-n", "team-a").ok().stdout()).contains("CreatedWorkload");

        assertThat(bed.kubectl().run("scale", "deployment", "vllm-server", "-n", "team-a", "--replicas=3").ok().stdout()).contains("scaled");
        JsonNode rescaled = await().atMost(PATIENCE).until(() -> bed.api().workloadOfJob("team-a", "vllm-server"),
                w -> w != null && podSets(w).equals(Map.of("main", 3)) && "True".equals(condition(w, "Admitted")));
        assertThat(rescaled.path("metadata").path("name").asText()).isNotEqualTo(queued.path("metadata").path("name").asText());
        await().atMost(PATIENCE).until(() -> runningPods("vllm-server-").size() == 3
                && runningPods("vllm-server-").stream().noneMatch(p -> attempt.equals(p.getMetadata().getLabels().get(Labels.ATTEMPT_ID))));
        await().atMost(PATIENCE).until(() -> bed.kubectl().jsonpath("team-a", "deployment", "vllm-server", ".status.readyReplicas"), "3"::equals);

        assertThat(bed.kubectl().run("delete", "-f", "examples/jobs/deployment.yaml").ok().stdout()).contains("deleted");
        await().atMost(PATIENCE).until(() -> bed.api().workloadOfJob("team-a", "vllm-server") == null);
        await().atMost(PATIENCE).until(() -> remoteCopies(ServingKind.DEPLOYMENT).isEmpty());
        await().atMost(PATIENCE).until(() -> runningPods("vllm-server-").isEmpty());
    }

    @Test
    void aStatefulSetScalesOnlyToAndFromZeroAndItsQuotaFollows() throws Exception {
        bed.kubectl().run("create", "-f", "examples/jobs/statefulset.yaml").ok();
        JsonNode first = await().atMost(PATIENCE).until(() -> bed.api().workloadOfJob("team-a", "triton"),
                w -> w != null && "True".equals(condition(w, "Admitted")));
        assertThat(podSets(first)).isEqualTo(Map.of("main", 2));
        await().atMost(PATIENCE).until(() -> runningPods("triton-").size() == 2);
        assertThat(runningPods("triton-")).extracting(p -> p.getMetadata().getName()).containsExactlyInAnyOrder("triton-0", "triton-1");
        assertThat(runningPods("triton-")).allSatisfy(p -> assertThat(p.getMetadata().getLabels())
                .containsEntry(ServingKind.STS_POD_NAME_LABEL, p.getMetadata().getName())
                .containsKey(ServingKind.POD_INDEX_LABEL));
        await().atMost(PATIENCE).until(() -> bed.kubectl().run("get", "statefulset", "triton", "-n", "team-a").stdout(),
                out -> out.matches("(?s)NAME\\s+READY\\s+AGE\\s+triton\\s+2/2\\s+\\d+s\\s*"));

        KubectlCli.Result refused = bed.kubectl().run("scale", "statefulset", "triton", "-n", "team-a", "--replicas=3");
        assertThat(refused.exitCode()).isNotZero();
        assertThat(refused.stderr()).contains("spec.replicas").contains("immutable");

        bed.kubectl().run("scale", "statefulset", "triton", "-n", "team-a", "--replicas=0").ok();
        await().atMost(PATIENCE).until(() -> bed.api().workloadOfJob("team-a", "triton") == null);
        await().atMost(PATIENCE).until(() -> remoteCopies(ServingKind.STATEFUL_SET).isEmpty() && runningPods("triton-").isEmpty());

        bed.kubectl().run("scale", "statefulset", "triton", "-n", "team-a", "--replicas=2").ok();
        await().atMost(PATIENCE).until(() -> bed.api().workloadOfJob("team-a", "triton"), w -> w != null && "True".equals(condition(w, "Admitted")));
        await().atMost(PATIENCE).until(() -> runningPods("triton-").size() == 2);

        bed.kubectl().run("delete", "statefulset", "triton", "-n", "team-a").ok();
        await().atMost(PATIENCE).until(() -> bed.api().workloadOfJob("team-a", "triton") == null);
        await().atMost(PATIENCE).until(() -> remoteCopies(ServingKind.STATEFUL_SET).isEmpty() && runningPods("triton-").isEmpty());
    }

    @Test
    void aLeaderWorkerSetRunsItsLeaderAndWorkersOnOneWorkerAndMirrorsItsReadyGroups() throws Exception {
        assertThat(bed.kubectl().run("api-resources", "--api-group=leaderworkerset.x-k8s.io").ok().stdout())
                .containsPattern("leaderworkersets\\s+lws\\s+leaderworkerset.x-k8s.io/v1\\s+true\\s+LeaderWorkerSet");
        assertThat(bed.kubectl().run("explain", "lws.spec.leaderWorkerTemplate.size").ok().stdout()).contains("size");
        assertThat(bed.kubectl().run("create", "-f", "examples/jobs/leaderworkerset.yaml").ok().stdout())
                .contains("leaderworkerset.leaderworkerset.x-k8s.io/vllm-multinode created");
        JsonNode queued = await().atMost(PATIENCE).until(() -> bed.api().workloadOfJob("team-a", "vllm-multinode"), w -> w != null);
        assertThat(podSets(queued)).isEqualTo(Map.of("leader", 1, "worker", 2));

        GenericKubernetesResource remote = awaitRemote(ServingKind.LEADER_WORKER_SET, "vllm-multinode");
        String attempt = remote.getMetadata().getLabels().get(Labels.ATTEMPT_ID);
        await().atMost(PATIENCE).until(() -> runningPods("vllm-multinode-").size() == 3);
        assertThat(runningPods("vllm-multinode-")).extracting(p -> p.getMetadata().getName())
                .containsExactlyInAnyOrder("vllm-multinode-0", "vllm-multinode-0-1", "vllm-multinode-0-2");
        assertThat(runningPods("vllm-multinode-")).allSatisfy(p -> assertThat(p.getMetadata().getLabels())
                .containsEntry(ServingKind.LWS_NAME_LABEL, "vllm-multinode").containsEntry(ServingKind.LWS_GROUP_INDEX_LABEL, "0")
                .containsEntry(Labels.ATTEMPT_ID, attempt));
        assertThat(runningPods("vllm-multinode-")).filteredOn(p -> p.getMetadata().getName().equals("vllm-multinode-0")).singleElement()
                .satisfies(leader -> assertThat(leader.getMetadata().getLabels()).containsEntry("role", "leader")
                        .containsEntry(ServingKind.LWS_WORKER_INDEX_LABEL, "0"));

        await().atMost(PATIENCE).until(() -> bed.kubectl().jsonpath("team-a", "lws", "vllm-multinode", ".status.readyReplicas"), "1"::equals);
        String table = bed.kubectl().run("get", "lws", "-n", "team-a").ok().stdout();
        assertThat(table.lines().findFirst().orElse("")).containsPattern("^NAME\\s+READY\\s+DESIRED\\s+UP-TO-DATE\\s+AGE$");
        assertThat(table).containsPattern("vllm-multinode\\s+1\\s+1\\s+1\\s+\\d+s");
        assertThat(condition(bed.api().workloadOfJob("team-a", "vllm-multinode"), "Finished")).isNotEqualTo("True");

        bed.kubectl().run("delete", "lws", "vllm-multinode", "-n", "team-a").ok();
        await().atMost(PATIENCE).until(() -> bed.api().workloadOfJob("team-a", "vllm-multinode") == null);
        await().atMost(PATIENCE).until(() -> remoteCopies(ServingKind.LEADER_WORKER_SET).isEmpty() && runningPods("vllm-multinode-").isEmpty());
        await().atMost(PATIENCE).until(() -> podsRecorded("vllm-multinode-").stream().allMatch(PodInterval::ended));
    }

    /** The worker's pods of an object (by name prefix) that run now. */
    private List<Pod> runningPods(String prefix) {
        return bed.system().worker(CLUSTER).client().pods().inNamespace("team-a").list().getItems().stream()
                .filter(p -> p.getMetadata().getName().startsWith(prefix))
                .filter(p -> p.getStatus() != null && "Running".equals(p.getStatus().getPhase()))
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null).toList();
    }

    private GenericKubernetesResource awaitRemote(ServingKind kind, String name) {
        return bed.awaitRemote(kind.apiVersion(), kind.kind(), name);
    }

    private List<GenericKubernetesResource> remoteCopies(ServingKind kind) {
        return bed.remoteCopies(kind.apiVersion(), kind.kind());
    }

    private List<PodInterval> podsRecorded(String prefix) {
        return bed.podsRecorded(p -> p.pod().startsWith(prefix));
    }
}
