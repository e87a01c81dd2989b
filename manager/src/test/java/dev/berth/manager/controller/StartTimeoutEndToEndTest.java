package dev.berth.manager.controller;

import static dev.berth.manager.testing.ManagerClient.KUEUE;
import static dev.berth.manager.testing.ManagerClient.condition;
import static dev.berth.manager.testing.ManagerClient.reason;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.manager.dispatch.PlacementOptions;
import dev.berth.manager.dispatch.StartTimeoutOptions;
import dev.berth.manager.testing.DispatchQueues;
import dev.berth.manager.testing.ManagerClient;
import dev.berth.manager.testing.ManagerHarness;
import dev.berth.manager.testing.MockWorkerClusters;
import dev.berth.protocol.crd.RemoteWorkload;
import dev.berth.protocol.crd.RemoteWorkloadStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 20 rule 1 end to end: the manager over HTTP on loopback with two worker clusters, each a fabric8 CRUD
 * mock API server; the test plays the agents. A copy whose cluster lost its room after placement, so its agent
 * reports it Pending, is withdrawn after the start timeout under the drain's fence (its lease expired on
 * purpose), and only once its agent reports it stopped is the workload placed on the other cluster.
 */
class StartTimeoutEndToEndTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Duration LEASE = Duration.ofSeconds(60);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(2);
    private static final String NO_ROOM = "insufficient nvidia.com/gpu: 4 requested, 0 free on matching nodes";

    @RegisterExtension
    final ManagerHarness harness = ManagerHarness.empty().dispatchOptions(
            new DispatchOptions("test-manager", LEASE, Duration.ofMillis(100), PlacementOptions.DEFAULTS)
                    .withStartTimeout(new StartTimeoutOptions(START_TIMEOUT, Duration.ofMinutes(10))));
    @RegisterExtension
    final MockWorkerClusters workers = new MockWorkerClusters();
    private ManagerClient client;

    @BeforeEach
    void start() {
        client = harness.client();
        workers.start("small").heartbeat(1);
        workers.start("roomy").heartbeat(8);
        DispatchQueues.to("small", "roomy").createIn(client);
        workers.get("small").connect(client);
        workers.get("roomy").connectThroughSecret(client);
    }

    @Test
    void aCopyItsWorkerCannotStartIsWithdrawnAndTheJobRunsOnTheOtherClusterOneCopyAtATime() throws Exception {
        submitJob(2, 2);
        RemoteWorkload first = await().atMost(WAIT).until(() -> attempt("roomy"), r -> r != null);
        String firstId = first.getSpec().getAttemptId();
        // after placement, other tenants fill roomy; small gains room
        heartbeat("roomy", 0);
        heartbeat("small", 8);
        pending("roomy", first);

        RemoteWorkload fenced = await().atMost(WAIT).until(() -> attempt("roomy"), r -> r != null && leaseExpired(r));
        assertThat(fenced.getSpec().getAttemptId()).isEqualTo(firstId);
        // the copy on roomy is fenced but not confirmed stopped: nothing is placed elsewhere yet
        await().during(Duration.ofMillis(800)).atMost(WAIT).until(() -> attempt("small") == null);

        workers.get("roomy").reportStopped(fenced);
        RemoteWorkload second = await().atMost(WAIT).until(() -> attempt("small"), r -> r != null);
        assertThat(second.getSpec().getAttemptId()).isNotEqualTo(firstId);
        await().atMost(WAIT).until(() -> attempt("roomy") == null);

        JsonNode workload = workload();
        JsonNode history = workload.path("status").path("dispatchHistory");
        assertThat(history).hasSize(2);
        assertThat(history.get(0).path("attemptId").asText()).isEqualTo(firstId);
        assertThat(history.get(0).path("cluster").asText()).isEqualTo("roomy");
        assertThat(history.get(0).path("outcome").asText()).isEqualTo("StartTimeout");
        assertThat(history.get(0).path("reason").asText()).matches("withdrawn from roomy after \\d+s: " + NO_ROOM);
        assertThat(history.get(1).path("cluster").asText()).isEqualTo("small");
        assertThat(workload.path("status").path("admissionChecks").get(0).path("message").asText())
                .startsWith("withdrawn from roomy after ").contains(NO_ROOM + "; placed on small: dispatched to cluster small");
        JsonNode explain = client.get(KUEUE + "/namespaces/team-a/workloads/" + workload.path("metadata").path("name").asText() + "/explain");
        assertThat(explain.toString()).contains("withdrawn from roomy");

        workers.get("small").reportRunning(second, 2);
        await().atMost(WAIT).until(() -> "True".equals(condition(workload(), "Admitted")));
        workers.get("small").reportSucceeded(attempt("small"), 2);
        await().atMost(WAIT).until(() -> "True".equals(condition(workload(), "Finished")));
    }

    @Test
    void aCopyTheAgentStartsBeforeTheExpiryReachesItStaysAndItsLeaseIsRenewed() throws Exception {
        submitJob(2, 2);
        RemoteWorkload first = await().atMost(WAIT).until(() -> attempt("roomy"), r -> r != null);
        heartbeat("roomy", 0);
        heartbeat("small", 8);
        pending("roomy", first);
        RemoteWorkload fenced = await().atMost(WAIT).until(() -> attempt("roomy"), r -> r != null && leaseExpired(r));

        // the agent's pass read the copy before the expired lease was written, and admitted it
        workers.get("roomy").reportRunning(fenced, 2);
        await().atMost(WAIT).until(() -> !leaseExpired(attempt("roomy")));
        await().atMost(WAIT).until(() -> "True".equals(condition(workload(), "Admitted")));
        assertThat(attempt("roomy").getSpec().getAttemptId()).isEqualTo(first.getSpec().getAttemptId());
        assertThat(attempt("small")).isNull();
        assertThat(workload().path("status").path("dispatchHistory")).hasSize(1);
    }

    @Test
    void anAdmittedCopyWhosePodsNoNodeCanTakeIsWithdrawnAndPlacedOnTheOtherCluster() throws Exception {
        submitJob(2, 2);
        RemoteWorkload first = await().atMost(WAIT).until(() -> attempt("roomy"), r -> r != null);
        String firstId = first.getSpec().getAttemptId();
        // the agent admitted it, then other tenants' pods took the nodes first: the copy's pods are unschedulable
        admittedUnschedulable("roomy", first);
        await().atMost(WAIT).until(() -> "True".equals(condition(workload(), "Admitted")));
        heartbeat("roomy", 0);
        heartbeat("small", 8);

        RemoteWorkload fenced = await().atMost(WAIT).until(() -> attempt("roomy"), r -> r != null && leaseExpired(r));
        assertThat(fenced.getSpec().getAttemptId()).isEqualTo(firstId);
        // still admitted on roomy (its pods wait for a node): the withdrawal waits for its agent to stop it
        await().during(Duration.ofMillis(800)).atMost(WAIT).until(() -> attempt("small") == null);
        assertThat(condition(workload(), "Admitted")).isEqualTo("True");

        workers.get("roomy").reportStopped(fenced);
        RemoteWorkload second = await().atMost(WAIT).until(() -> attempt("small"), r -> r != null);
        assertThat(second.getSpec().getAttemptId()).isNotEqualTo(firstId);
        // Kueue's SyncAdmittedCondition: the MultiKueue check is Pending again, so the workload is not admitted; it keeps its quota
        assertThat(condition(workload(), "Admitted")).isEqualTo("False");
        assertThat(reason(workload(), "Admitted")).isEqualTo("UnsatisfiedChecks");
        assertThat(condition(workload(), "QuotaReserved")).isEqualTo("True");
        await().atMost(WAIT).until(() -> attempt("roomy") == null);
        JsonNode history = workload().path("status").path("dispatchHistory");
        assertThat(history.get(0).path("outcome").asText()).isEqualTo("StartTimeout");
        assertThat(history.get(0).path("reason").asText())
                .matches("withdrawn from roomy after \\d+s: pod train-0 unschedulable: 0/2 nodes are available: 2 Insufficient nvidia.com/gpu\\.");

        workers.get("small").reportRunning(second, 2);
        await().atMost(WAIT).until(() -> "True".equals(condition(workload(), "Admitted")));
        assertThat(reason(workload(), "Admitted")).isEqualTo("Admitted");
    }

    /** The agent's report of a copy it admitted whose pods the cluster's scheduler found no node for. */
    private void admittedUnschedulable(String cluster, RemoteWorkload remote) {
        RemoteWorkloadStatus status = new RemoteWorkloadStatus();
        status.setPhase("Admitted");
        status.setAdmittedTime(Instant.now().toString());
        status.setPodsPending(2);
        RemoteWorkloadStatus.PodProblem problem = new RemoteWorkloadStatus.PodProblem();
        problem.setPod("train-0");
        problem.setReason("Unschedulable");
        problem.setMessage("0/2 nodes are available: 2 Insufficient nvidia.com/gpu.");
        status.setPodProblems(List.of(problem));
        workers.get(cluster).updateStatus(remote, status);
    }

    private static boolean leaseExpired(RemoteWorkload remote) {
        Instant renewed = Instant.parse(remote.getSpec().getLeaseRenewTime());
        return renewed.plusSeconds(remote.getSpec().getLeaseDurationSeconds()).isBefore(Instant.now());
    }

    private void pending(String cluster, RemoteWorkload remote) {
        RemoteWorkloadStatus status = new RemoteWorkloadStatus();
        status.setPhase("Pending");
        status.setReason(NO_ROOM);
        status.setMessage("waiting for capacity on cluster " + cluster);
        workers.get(cluster).updateStatus(remote, status);
    }

    // ---- the test as agent ---------------------------------------------------------------

    private void heartbeat(String cluster, int freeGpus) {
        workers.get(cluster).heartbeat(freeGpus);
    }

    private RemoteWorkload attempt(String cluster) {
        return workers.get(cluster).attempt();
    }

    // ---- the user ---------------------------------------------------------------------------

    private void submitJob(int pods, int gpusPerPod) {
        client.create(DispatchQueues.job("train", pods, gpusPerPod));
    }

    private JsonNode workload() {
        List<JsonNode> items = client.items(KUEUE + "/namespaces/team-a/workloads");
        return items.isEmpty() ? null : items.get(0);
    }
}
