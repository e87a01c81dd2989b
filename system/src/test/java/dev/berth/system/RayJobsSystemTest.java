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
import dev.berth.protocol.RayApi;
import dev.berth.virtualcluster.PodInterval;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * KubeRay's RayJob and RayCluster end to end through the real kubectl: the examples in examples/jobs are
 * created on the manager, queued with Kueue's pod sets (head, one per worker group, a RayJob's submitter),
 * dispatched to a virtual A100 cluster whose simulated KubeRay runs the head and worker pods with Ray's
 * names and labels, mirrored back (job and deployment status, cluster name, dashboard URL, job id; a
 * cluster's state), finished (the RayJob, when its submitter does) or serving (the RayCluster), and deleted.
 */
@NeedsKubectl
class RayJobsSystemTest {
    @RegisterExtension
    static final SingleWorkerSystem bed = new SingleWorkerSystem("ray");

    @Test
    void aRayJobRunsItsClusterAndSubmitterOnAWorkerFinishesWithItsEntrypointAndKubectlShowsTheWorkersState() throws Exception {
        assertThat(bed.kubectl().run("api-resources", "--api-group=ray.io").ok().stdout())
                .containsPattern("rayjobs\\s+ray.io/v1\\s+true\\s+RayJob")
                .containsPattern("rayclusters\\s+ray.io/v1\\s+true\\s+RayCluster");
        assertThat(bed.kubectl().run("explain", "rayjob.spec.rayClusterSpec.workerGroupSpecs").ok().stdout()).contains("groupName");
        assertThat(bed.kubectl().run("create", "-f", "examples/jobs/rayjob.yaml").ok().stdout()).contains("rayjob.ray.io/ray-sum created");

        JsonNode queued = await().atMost(PATIENCE).until(() -> bed.api().workloadOfJob("team-a", "ray-sum"), w -> w != null);
        assertThat(podSets(queued)).containsExactly(Map.entry("head", 1), Map.entry("gpu-workers", 2), Map.entry("submitter", 1));
        assertThat(queued.path("spec").path("podSets").path(2).path("template").toString())
                .as("KubeRay's default submitter, as Kueue counts it").contains("500m").contains("200Mi").contains("rayproject/ray:2.41.0");
        assertThat(bed.kubectl().jsonpath("team-a", "rayjob", "ray-sum", ".spec.managedBy"))
                .as("Kueue's managedBy default on the manager's copy").isEqualTo("kueue.x-k8s.io/multikueue");

        GenericKubernetesResource remote = awaitRemote(RayApi.RAY_JOB_KIND, "ray-sum");
        Map<String, Object> remoteSpec = spec(remote);
        assertThat(remoteSpec).as("the worker's KubeRay runs its copy").doesNotContainKey("managedBy").containsEntry("suspend", false);
        assertThat(remoteSpec).containsKey("submitterPodTemplate");
        String attempt = remote.getMetadata().getLabels().get(Labels.ATTEMPT_ID);
        assertThat(attempt).isNotBlank();
        assertThat(remote.getMetadata().getLabels()).doesNotContainKey(Labels.QUEUE_NAME);

        JsonNode finished = await().atMost(PATIENCE).until(() -> bed.api().workloadOfJob("team-a", "ray-sum"),
                w -> "True".equals(condition(w, "Finished")));
        assertThat(finished.path("status").path("clusterName").asText()).isEqualTo(CLUSTER);
        assertThat(finished.path("status").path("conditions").toString()).contains("\"Succeeded\"");

        String rayCluster = bed.kubectl().jsonpath("team-a", "rayjob", "ray-sum", ".status.rayClusterName");
        assertThat(rayCluster).startsWith("ray-sum-");
        List<PodInterval> clusterPods = podsOfCluster(rayCluster);
        assertThat(clusterPods).extracting(PodInterval::pod)
                .containsExactlyInAnyOrder(rayCluster + "-head", rayCluster + "-gpu-workers-worker-0", rayCluster + "-gpu-workers-worker-1");
        assertThat(clusterPods).allSatisfy(p -> assertThat(p.attemptId()).isEqualTo(attempt));
        assertThat(clusterPods).filteredOn(p -> p.pod().endsWith("-head")).singleElement().satisfies(head -> assertThat(head.labels())
                .containsEntry(RayApi.NODE_TYPE_LABEL, "head").containsEntry(RayApi.GROUP_LABEL, "headgroup"));
        assertThat(clusterPods).filteredOn(p -> p.pod().contains("-worker-")).allSatisfy(worker -> assertThat(worker.labels())
                .containsEntry(RayApi.NODE_TYPE_LABEL, "worker").containsEntry(RayApi.GROUP_LABEL, "gpu-workers"));
        List<PodInterval> submitter = bed.podsLabelled("job-name", "ray-sum");
        assertThat(submitter).singleElement().satisfies(s -> {
            assertThat(s.attemptId()).isEqualTo(attempt);
            assertThat(s.endPhase()).isEqualTo("Succeeded");
        });
        await("shutdownAfterJobFinishes: the Ray cluster is deleted").atMost(PATIENCE)
                .until(() -> podsOfCluster(rayCluster).stream().allMatch(PodInterval::ended));

        await().atMost(PATIENCE).until(() -> bed.kubectl().jsonpath("team-a", "rayjob", "ray-sum", ".status.jobDeploymentStatus"), "Complete"::equals);
        assertThat(bed.kubectl().jsonpath("team-a", "rayjob", "ray-sum", ".status.jobStatus")).isEqualTo("SUCCEEDED");
        assertThat(bed.kubectl().jsonpath("team-a", "rayjob", "ray-sum", ".status.dashboardURL"))
                .isEqualTo(rayCluster + "-head-svc.team-a.svc.cluster.local:8265");
        assertThat(bed.kubectl().jsonpath("team-a", "rayjob", "ray-sum", ".status.jobId")).startsWith("ray-sum-");
        String table = bed.kubectl().run("get", "rayjobs", "-n", "team-a").ok().stdout();
        assertThat(table.lines().findFirst().orElse(""))
                .containsPattern("^NAME\\s+JOB STATUS\\s+DEPLOYMENT STATUS\\s+RAY CLUSTER NAME\\s+START TIME\\s+END TIME\\s+AGE$");
        assertThat(table).containsPattern("ray-sum\\s+SUCCEEDED\\s+Complete\\s+" + rayCluster);
        assertThat(bed.kubectl().run("describe", "rayjob", "ray-sum", "-n", "team-a").ok().stdout())
                .contains("Ray Cluster Spec").contains("CreatedWorkload");

        assertThat(bed.kubectl().run("delete", "rayjob", "ray-sum", "-n", "team-a").ok().stdout()).contains("deleted");
        await().atMost(PATIENCE).until(() -> bed.api().workloadOfJob("team-a", "ray-sum") == null);
        await().atMost(PATIENCE).until(() -> remoteCopies(RayApi.RAY_JOB_KIND).isEmpty());
    }

    @Test
    void aRayClusterServesOnAWorkerUntilDeletedAndItsStateIsMirrored() throws Exception {
        assertThat(bed.kubectl().run("create", "-f", "examples/jobs/raycluster.yaml").ok().stdout())
                .contains("raycluster.ray.io/ray-interactive created");
        JsonNode queued = await().atMost(PATIENCE).until(() -> bed.api().workloadOfJob("team-a", "ray-interactive"), w -> w != null);
        assertThat(podSets(queued)).containsExactly(Map.entry("head", 1), Map.entry("gpu-workers", 2));

        GenericKubernetesResource remote = awaitRemote(RayApi.RAY_CLUSTER_KIND, "ray-interactive");
        assertThat(spec(remote)).doesNotContainKey("managedBy").containsEntry("suspend", false);
        String attempt = remote.getMetadata().getLabels().get(Labels.ATTEMPT_ID);

        await().atMost(PATIENCE).until(() -> bed.kubectl().jsonpath("team-a", "raycluster", "ray-interactive", ".status.state"), "ready"::equals);
        assertThat(bed.kubectl().jsonpath("team-a", "raycluster", "ray-interactive", ".status.availableWorkerReplicas")).isEqualTo("2");
        assertThat(bed.kubectl().jsonpath("team-a", "raycluster", "ray-interactive", ".status.maxWorkerReplicas")).isEqualTo("4");
        assertThat(podsOfCluster("ray-interactive")).extracting(PodInterval::pod).containsExactlyInAnyOrder(
                "ray-interactive-head", "ray-interactive-gpu-workers-worker-0", "ray-interactive-gpu-workers-worker-1");
        assertThat(podsOfCluster("ray-interactive")).allSatisfy(p -> {
            assertThat(p.attemptId()).isEqualTo(attempt);
            assertThat(p.labels()).containsEntry(RayApi.CLUSTER_LABEL, "ray-interactive");
        });
        String table = bed.kubectl().run("get", "rayclusters", "-n", "team-a").ok().stdout();
        assertThat(table.lines().findFirst().orElse("")).containsPattern("^NAME\\s+DESIRED WORKERS\\s+AVAILABLE WORKERS\\s+CPUS\\s+MEMORY\\s+GPUS\\s+STATUS\\s+AGE$");
        assertThat(table).containsPattern("ray-interactive\\s+2\\s+2\\s+.*ready");

        JsonNode serving = bed.api().workloadOfJob("team-a", "ray-interactive");
        assertThat(condition(serving, "Admitted")).isEqualTo("True");
        assertThat(condition(serving, "Finished")).as("a RayCluster is never finished").isNotEqualTo("True");
        assertThat(podsOfCluster("ray-interactive")).noneMatch(PodInterval::ended);

        bed.kubectl().run("delete", "-f", "examples/jobs/raycluster.yaml").ok();
        await().atMost(PATIENCE).until(() -> bed.api().workloadOfJob("team-a", "ray-interactive") == null);
        await().atMost(PATIENCE).until(() -> remoteCopies(RayApi.RAY_CLUSTER_KIND).isEmpty());
        await().atMost(PATIENCE).until(() -> podsOfCluster("ray-interactive").stream().allMatch(PodInterval::ended));
    }

    private List<PodInterval> podsOfCluster(String clusterName) {
        return bed.podsLabelled(RayApi.CLUSTER_LABEL, clusterName);
    }

    private GenericKubernetesResource awaitRemote(RayApi.Kind kind, String name) {
        return bed.awaitRemote(kind.apiVersion(), kind.kind(), name);
    }

    private List<GenericKubernetesResource> remoteCopies(RayApi.Kind kind) {
        return bed.remoteCopies(kind.apiVersion(), kind.kind());
    }
}
