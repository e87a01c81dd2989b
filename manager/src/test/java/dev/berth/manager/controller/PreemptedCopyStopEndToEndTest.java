package dev.berth.manager.controller;

import static dev.berth.manager.testing.ManagerClient.KUEUE;
import static dev.berth.manager.testing.ManagerClient.condition;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.manager.dispatch.PlacementOptions;
import dev.berth.manager.testing.DispatchQueues;
import dev.berth.manager.testing.KueueObjects;
import dev.berth.manager.testing.ManagerClient;
import dev.berth.manager.testing.ManagerHarness;
import dev.berth.manager.testing.MockWorkerCluster;
import dev.berth.manager.testing.MockWorkerClusters;
import dev.berth.protocol.Labels;
import dev.berth.protocol.crd.RemoteWorkload;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 20, rule 4, end to end: the manager over HTTP on loopback, one worker cluster as a fabric8 CRUD
 * mock API server whose agent the test plays. A high-priority job preempts a running one; the preempted
 * copy's pod is held in Terminating by a finalizer. The preempted workload keeps its quota (Evicted=True,
 * QuotaReserved=True) and the preemptor's copy is not created until that pod is gone; then the quota is
 * released and the preemptor dispatched. The preempted workload is a batch Job, a PyTorchJob of two replica
 * types (suspended again on the manager), or a serving Deployment (issue 17), which then waits requeued,
 * never finished, with nothing added to its spec.
 */
class PreemptedCopyStopEndToEndTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String HOLD = "test.berth.dev/hold";

    @RegisterExtension
    final ManagerHarness harness = ManagerHarness.empty()
            .dispatchOptions(new DispatchOptions("test-manager", Duration.ofSeconds(60), Duration.ofMillis(100), PlacementOptions.DEFAULTS));

    @RegisterExtension
    final MockWorkerClusters workers = new MockWorkerClusters();
    private MockWorkerCluster gpu;
    private ManagerClient client;

    @BeforeEach
    void start() {
        gpu = workers.start("gpu").heartbeat(new MockWorkerCluster.Capacity("a100", 1, 8, 8, 64, null));
        client = harness.client();
        client.create(KueueObjects.workloadPriorityClass("low", 0));
        client.create(KueueObjects.workloadPriorityClass("high", 100));
        DispatchQueues.to("gpu").gpuQuota(8).preemptWithinClusterQueue("LowerPriority").createIn(client);
        gpu.connect(client);
    }

    /** What is preempted: a Job, a multi-replica training job (issue 17), or a Deployment (serving, long-running). */
    enum Preempted { JOB, PYTORCH_JOB, DEPLOYMENT }

    @ParameterizedTest
    @EnumSource(Preempted.class)
    void thePreemptorIsDispatchedOnlyOnceThePreemptedCopyStoppedAndItsQuotaWasReleased(Preempted kind) throws Exception {
        switch (kind) {
            case JOB -> submitJob("low", "low");
            case PYTORCH_JOB -> submitPyTorchJob("low", "low");
            case DEPLOYMENT -> submitDeployment("low", "low");
        }
        RemoteWorkload low = await().atMost(WAIT).until(() -> remoteOf("low"), r -> r != null);
        String lowAttempt = low.getSpec().getAttemptId();
        runningPodHeldByFinalizer(low);
        gpu.reportRunning(low, 1);
        await().atMost(WAIT).until(() -> "True".equals(condition(workloadOf("low"), "Admitted")));

        submitJob("high", "high");
        JsonNode evicted = await().atMost(WAIT).until(() -> workloadOf("low"), w -> "True".equals(condition(w, "Evicted")));
        assertThat(ManagerClient.findCondition(evicted, "Evicted").path("reason").asText()).isEqualTo("Preempted");
        assertThat(condition(evicted, "QuotaReserved")).as("the preempted workload keeps its quota while its copy stops").isEqualTo("True");

        // the manager deletes the preempted attempt under its id; its pod stays Terminating (the finalizer)
        await().atMost(WAIT).until(() -> remoteOf("low") == null);
        await().atMost(WAIT).until(() -> pod("low-0").getMetadata().getDeletionTimestamp() != null);
        await().during(Duration.ofSeconds(2)).atMost(WAIT).until(() -> remoteOf("high") == null
                && "True".equals(condition(workloadOf("low"), "QuotaReserved"))
                && !"True".equals(condition(workloadOf("high"), "QuotaReserved")));
        assertThat(ManagerClient.findCondition(workloadOf("high"), "QuotaReserved").path("message").asText())
                .contains("Pending the preemption of 1 workload(s)");

        // the pod finishes terminating: the stop is confirmed, the quota released, the preemptor dispatched
        gpu.agent().pods().inNamespace("team-a").withName("low-0").edit(p -> new PodBuilder(p).editMetadata().withFinalizers().endMetadata().build());
        RemoteWorkload high = await().atMost(WAIT).until(() -> remoteOf("high"), r -> r != null);
        assertThat(pod("low-0")).as("the preempted copy's pod is gone before the preemptor's copy exists").isNull();
        JsonNode released = workloadOf("low");
        assertThat(condition(released, "QuotaReserved")).isEqualTo("False");
        assertThat(condition(released, "Requeued")).isEqualTo("True");
        assertThat(high.getSpec().getAttemptId()).isNotEqualTo(lowAttempt);
        assertThat(remoteOf("low")).as("the preempted workload waits for quota, it is not dispatched again").isNull();
        if (kind == Preempted.PYTORCH_JOB) {
            assertThat(low.getSpec().getTemplate()).containsEntry("kind", "PyTorchJob");
            assertThat(client.get("/apis/kubeflow.org/v1/namespaces/team-a/pytorchjobs/low").path("spec").path("runPolicy").path("suspend")
                    .asBoolean()).as("the evicted training job is suspended again on the manager, as Kueue does").isTrue();
        }
        if (kind == Preempted.DEPLOYMENT) {
            assertThat(condition(released, "Finished")).as("a serving workload is requeued, never finished").isNotEqualTo("True");
            assertThat(client.get("/apis/apps/v1/namespaces/team-a/deployments/low").path("spec").has("suspend"))
                    .as("no suspend switch is written onto a Deployment").isFalse();
            assertThat(low.getSpec().getTemplate()).containsEntry("kind", "Deployment");
        }
    }

    // ---- the test as agent ---------------------------------------------------------------

    /** The copy's pod, labelled with its attempt as the agent labels it, running and held in Terminating by a finalizer once deleted. */
    private void runningPodHeldByFinalizer(RemoteWorkload remote) {
        gpu.agent().pods().inNamespace("team-a").resource(new PodBuilder().withNewMetadata().withName("low-0").withNamespace("team-a")
                .addToLabels(Labels.ATTEMPT_ID, remote.getSpec().getAttemptId())
                .addToLabels(Labels.REMOTE_WORKLOAD, remote.getMetadata().getName()).withFinalizers(HOLD).endMetadata()
                .withNewSpec().addNewContainer().withName("c").withImage("x").endContainer().endSpec()
                .withNewStatus().withPhase("Running").endStatus().build()).create();
    }

    private Pod pod(String name) {
        return gpu.agent().pods().inNamespace("team-a").withName(name).get();
    }

    /** The RemoteWorkload on the worker for the job's workload, or null. */
    private RemoteWorkload remoteOf(String job) throws Exception {
        JsonNode workload = workloadOf(job);
        if (workload == null) return null;
        return gpu.attemptOf(workload.path("metadata").path("name").asText());
    }

    // ---- the user ---------------------------------------------------------------------------

    private void submitJob(String name, String priorityClass) {
        client.create(DispatchQueues.job(name, 1, 8).label("kueue.x-k8s.io/priority-class", priorityClass));
    }

    /** A PyTorchJob of a master and a worker, 4 GPUs each: one workload of two pod sets holding the cluster's 8 GPUs. */
    private void submitPyTorchJob(String name, String priorityClass) {
        String replica = """
                      replicas: 1
                      template:
                        spec:
                          containers:
                          - name: pytorch
                            image: x
                            resources: {requests: {nvidia.com/gpu: "4"}, limits: {nvidia.com/gpu: "4"}}
                """;
        String yaml = """
                apiVersion: kubeflow.org/v1
                kind: PyTorchJob
                metadata:
                  name: %s
                  namespace: team-a
                  labels: {kueue.x-k8s.io/queue-name: %s, kueue.x-k8s.io/priority-class: %s}
                spec:
                  pytorchReplicaSpecs:
                    Master:
                %s    Worker:
                %s""".formatted(name, DispatchQueues.LOCAL_QUEUE, priorityClass, replica, replica);
        assertThat(client.send("POST", "/apis/kubeflow.org/v1/namespaces/team-a/pytorchjobs", "application/yaml", yaml).statusCode())
                .isEqualTo(201);
    }

    private void submitDeployment(String name, String priorityClass) {
        String yaml = """
                apiVersion: apps/v1
                kind: Deployment
                metadata:
                  name: %s
                  namespace: team-a
                  labels: {kueue.x-k8s.io/queue-name: %s, kueue.x-k8s.io/priority-class: %s}
                spec:
                  replicas: 1
                  selector: {matchLabels: {app: %s}}
                  template:
                    metadata: {labels: {app: %s}}
                    spec:
                      containers:
                      - name: c
                        image: x
                        resources: {requests: {nvidia.com/gpu: "8"}, limits: {nvidia.com/gpu: "8"}}
                """.formatted(name, DispatchQueues.LOCAL_QUEUE, priorityClass, name, name);
        assertThat(client.send("POST", "/apis/apps/v1/namespaces/team-a/deployments", "application/yaml", yaml).statusCode()).isEqualTo(201);
    }

    private JsonNode workloadOf(String job) {
        for (JsonNode workload : client.items(KUEUE + "/namespaces/team-a/workloads")) {
            for (JsonNode owner : workload.path("metadata").path("ownerReferences")) {
                if (job.equals(owner.path("name").asText())) return workload;
            }
        }
        return null;
    }
}
