package dev.berth.manager.controller;

import static dev.berth.manager.testing.ManagerClient.KUEUE;
import static dev.berth.manager.testing.ManagerClient.condition;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.clusters.ResilienceOptions;
import dev.berth.manager.dispatch.FailoverOptions;
import dev.berth.manager.dispatch.HealthOptions;
import dev.berth.manager.dispatch.PlacementOptions;
import dev.berth.manager.store.ObjectKey;
import dev.berth.manager.store.ObjectStore;
import dev.berth.manager.testing.DispatchQueues;
import dev.berth.manager.testing.ManagerClient;
import dev.berth.manager.testing.ManagerHarness;
import dev.berth.manager.testing.MockWorkerClusters;
import dev.berth.manager.testing.MultiKueueObjects;
import dev.berth.protocol.Labels;
import dev.berth.protocol.crd.BerthCrds;
import dev.berth.protocol.crd.RemoteWorkload;
import dev.berth.protocol.crd.RemoteWorkloadSpec;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The manager over HTTP on loopback dispatching to two worker clusters, each a fabric8 CRUD mock
 * API server; the test plays the agents (heartbeat Lease with capacity, RemoteWorkload status).
 */
class DispatchEndToEndTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Duration LATE = Duration.ofSeconds(2);

    @RegisterExtension
    final ManagerHarness harness = ManagerHarness.empty()
            .dispatchOptions(new DispatchOptions("test-manager", Duration.ofSeconds(60), Duration.ofMillis(100), PlacementOptions.DEFAULTS));
    @RegisterExtension
    final MockWorkerClusters workers = new MockWorkerClusters();
    /** How many RemoteWorkload creates, on any cluster, are still to be answered late (stored at once, answered after {@link #LATE}). */
    private final AtomicInteger lateCreates = new AtomicInteger();
    private ManagerClient client;

    @BeforeEach
    void start() {
        client = harness.client();
        workers.start("small", new LateCreates(lateCreates)).heartbeat(1);
        workers.start("roomy", new LateCreates(lateCreates)).heartbeat(8);
        DispatchQueues.to("small", "roomy").createIn(client);
        workers.get("small").connect(client);
        workers.get("roomy").connectThroughSecret(client);
    }

    @Test
    void aWorkloadRunsInTheClusterWithRoomAndFinishesThere() throws Exception {
        String job = submitJob(2, 1);
        RemoteWorkload remote = await().atMost(WAIT).until(() -> attempt("roomy"), r -> r != null);
        assertThat(attempt("small")).isNull();
        assertThat(remote.getSpec().getOrigin()).isEqualTo("test-manager");
        assertThat(remote.getSpec().getFencingEpoch()).isEqualTo(harness.manager().fencingEpoch());
        assertThat(remote.getSpec().getPodSets()).singleElement().satisfies(p -> {
            assertThat(p.getCount()).isEqualTo(2);
            assertThat(p.getRequests()).containsEntry("nvidia.com/gpu", "1");
            assertThat(p.getFlavors()).containsEntry("nvidia.com/gpu", "a100");
        });
        assertThat(remote.getSpec().getFlavors()).singleElement().satisfies(f -> assertThat(f.getName()).isEqualTo("a100"));
        assertThat(remote.getSpec().getTemplate()).containsEntry("kind", "Job").doesNotContainKey("status");
        JsonNode pending = workload();
        assertThat(pending.path("status").path("admissionChecks").get(0).path("message").asText())
                .startsWith("dispatched to cluster roomy (attempt " + remote.getSpec().getAttemptId());
        assertThat(condition(pending, "Admitted")).isNotEqualTo("True");
        assertThat(workers.get("roomy").agent().configMaps().inNamespace(BerthCrds.SYSTEM_NAMESPACE).withName(BerthCrds.FLAVOR_CATALOGUE).get()
                .getData().get(BerthCrds.FLAVOR_CATALOGUE_KEY)).contains("NVIDIA-A100-SXM4-40GB");

        workers.get("roomy").reportRunning(remote, 2);
        JsonNode admitted = await().atMost(WAIT).until(this::workload, w -> "True".equals(condition(w, "Admitted")));
        assertThat(admitted.path("status").path("clusterName").asText()).isEqualTo("roomy");
        assertThat(admitted.path("status").path("dispatch").path("phase").asText()).isEqualTo("Running");
        assertThat(admitted.path("status").path("dispatch").path("attemptId").asText()).isEqualTo(remote.getSpec().getAttemptId());
        await().atMost(WAIT).until(() -> client.get("/apis/batch/v1/namespaces/team-a/jobs/" + job).path("status").path("active").asInt() == 2);

        workers.get("roomy").reportSucceeded(attempt("roomy"), 2);
        await().atMost(WAIT).until(() -> "True".equals(condition(workload(), "Finished")));
        await().atMost(WAIT).until(() -> attempt("roomy") == null);
        JsonNode queue = client.get(KUEUE + "/clusterqueues/cq");
        assertThat(queue.path("status").path("reservingWorkloads").asInt()).isZero();
    }

    @Test
    void aPartiallyAdmittedJobIsDispatchedWithTheAdmittedCountAsParallelismAndCompletions() throws Exception {
        client.create(DispatchQueues.job("elastic", 10, 1).request("cpu", "8")
                .annotation("kueue.x-k8s.io/job-min-parallelism", "2").annotation("kueue.x-k8s.io/job-completions-equal-parallelism", "true"));

        RemoteWorkload remote = await().atMost(WAIT).until(() -> attempt("roomy"), r -> r != null);

        assertThat(remote.getSpec().getPodSets()).singleElement().satisfies(p -> assertThat(p.getCount()).isEqualTo(8));
        @SuppressWarnings("unchecked")
        Map<String, Object> spec = (Map<String, Object>) remote.getSpec().getTemplate().get("spec");
        assertThat(spec).containsEntry("parallelism", 8).containsEntry("completions", 8);
    }

    @Test
    void aWorkloadWithNoJobBehindItReservesQuotaIsNotDispatchedAndExplainSaysThereIsNothingToRun() throws Exception {
        client.create(KUEUE + "/namespaces/team-a/workloads", "{\"apiVersion\":\"kueue.x-k8s.io/v1beta2\",\"kind\":\"Workload\",\"metadata\":{\"name\":\"bare\"},\"spec\":{"
                + "\"queueName\":\"lq\",\"podSets\":[{\"name\":\"main\",\"count\":2,\"template\":{\"spec\":{\"containers\":[{"
                + "\"name\":\"c\",\"image\":\"x\",\"resources\":{\"requests\":{\"nvidia.com/gpu\":\"1\"}}}]}}}]}}");

        JsonNode reserved = await().atMost(WAIT).until(this::workload, w -> w != null
                && w.path("status").path("admissionChecks").path(0).path("message").asText().startsWith("nothing to run"));

        assertThat(condition(reserved, "QuotaReserved")).isEqualTo("True");
        assertThat(client.get(KUEUE + "/clusterqueues/cq").path("status").path("reservingWorkloads").asInt()).isEqualTo(1);
        assertThat(attempt("roomy")).isNull();
        assertThat(attempt("small")).isNull();
        JsonNode explanation = client.get(KUEUE + "/namespaces/team-a/workloads/bare/explain");
        assertThat(explanation.path("answer").asText()).contains("nothing to run: no Job, JobSet or Pod owns this Workload");
    }

    @Test
    void aWorkloadThatARestartedManagersFirstPassAdmitsIsDispatched() throws Exception {
        client.mergePatch(KUEUE + "/clusterqueues/cq", "{\"spec\":{\"stopPolicy\":\"Hold\"}}");
        submitJob(2, 1);
        await().atMost(WAIT).until(this::workload, w -> w != null && "False".equals(condition(w, "QuotaReserved")));
        harness.stopManager();
        // What a leader leaves behind when it accepted "resume the queue" and died before its pass ran.
        ObjectKey queue = new ObjectKey(Resources.CLUSTER_QUEUES.resource(), "", "cq");
        ObjectStore store = harness.store();
        ObjectNode resumed = store.get(queue).orElseThrow().object().deepCopy();
        ((ObjectNode) resumed.path("spec")).remove("stopPolicy");
        store.replace(queue, resumed, null);

        harness.restart();
        RemoteWorkload remote = await().atMost(WAIT).until(() -> attempt("roomy"), r -> r != null);
        assertThat(remote.getSpec().getFencingEpoch()).isEqualTo(harness.manager().fencingEpoch());
    }

    @Test
    void aCreateTheClusterNeverAcknowledgedHoldsTheWorkloadUntilTheLeaseItCarriedRunsOut() throws Exception {
        Duration lease = Duration.ofSeconds(3);
        Duration margin = Duration.ofSeconds(1);
        harness.restart(quickToGiveUp(lease, margin));
        RemoteWorkload first = createAnsweredLate();

        RemoteWorkload second = await().atMost(WAIT).until(() -> attempt("roomy"),
                r -> r != null && !r.getSpec().getAttemptId().equals(first.getSpec().getAttemptId()));
        assertThat(leaseStamp(second)).as("the next attempt waits until the unacknowledged one's lease has surely run out")
                .isAfterOrEqualTo(leaseStamp(first).plus(lease).plus(margin));
        JsonNode events = client.get("/api/v1/namespaces/default/events");
        assertThat(events.path("items").findValuesAsText("reason")).contains("DispatchUnconfirmed");
        assertThat(workload().path("status").has("dispatchHolds")).as("the hold, lifted, is gone from the status").isFalse();
    }

    @Test
    void aRestartedManagerKeepsHoldingAWorkloadWhoseCreateWasNeverAcknowledged() throws Exception {
        Duration lease = Duration.ofSeconds(8);
        Duration margin = Duration.ofSeconds(1);
        DispatchOptions options = quickToGiveUp(lease, margin);
        harness.restart(options);
        RemoteWorkload first = createAnsweredLate();
        JsonNode hold = workload().path("status").path("dispatchHolds").path(0);
        assertThat(hold.path("attemptId").asText()).isEqualTo(first.getSpec().getAttemptId());
        assertThat(hold.path("reason").asText()).isEqualTo("DispatchUnconfirmed");
        // the copy that landed is stale to this manager, which deletes it; a manager started while it is
        // still there would adopt it (it is the workload's only copy) instead of dispatching anew
        await().atMost(WAIT).until(() -> attempt("roomy") == null);

        harness.restart(options);
        RemoteWorkload second = await().atMost(WAIT).until(() -> attempt("roomy"),
                r -> r != null && !r.getSpec().getAttemptId().equals(first.getSpec().getAttemptId()));
        assertThat(leaseStamp(second)).as("the restarted manager still waited for the unacknowledged attempt's lease")
                .isAfterOrEqualTo(leaseStamp(first).plus(lease).plus(margin));
    }

    /** Dispatch options that give a create up after 300 ms, with the given lease and margin. */
    private static DispatchOptions quickToGiveUp(Duration lease, Duration margin) {
        return new DispatchOptions("test-manager", lease, Duration.ofMillis(100), PlacementOptions.DEFAULTS,
                new FailoverOptions(Duration.ofSeconds(20), margin, HealthOptions.DEFAULTS),
                new ResilienceOptions(Duration.ofMillis(300), 1, Duration.ofMillis(50), 50f, 10, Duration.ofSeconds(10), 8));
    }

    /** Submits a job whose first create the cluster stores at once but answers after the manager gave up; waits for the hold. */
    private RemoteWorkload createAnsweredLate() throws Exception {
        lateCreates.set(1);
        submitJob(2, 1);
        RemoteWorkload first = await().atMost(WAIT).until(() -> attempt("roomy"), r -> r != null);
        JsonNode held = await().atMost(WAIT).until(this::workload,
                w -> w.path("status").path("admissionChecks").path(0).path("message").asText().contains("never confirmed"));
        assertThat(held.path("status").path("admissionChecks").get(0).path("message").asText())
                .contains("attempt " + first.getSpec().getAttemptId() + " on cluster roomy", "dispatched again once its lease has run out");
        return first;
    }

    private static Instant leaseStamp(RemoteWorkload attempt) {
        return Instant.parse(attempt.getSpec().getLeaseRenewTime());
    }

    @Test
    void aWorkloadThatFitsNowhereStaysPendingWithEveryClustersReason() throws Exception {
        submitJob(1, 9);
        JsonNode workload = await().atMost(WAIT).until(this::workload, w -> w != null
                && w.path("status").path("admissionChecks").path(0).path("message").asText().startsWith("no worker cluster"));
        assertThat(workload.path("status").path("admissionChecks").get(0).path("message").asText()).isEqualTo(
                "no worker cluster can start the workload now: small: no capacity: insufficient nvidia.com/gpu: 9 requested, 1 free; "
                        + "roomy: no capacity: insufficient nvidia.com/gpu: 9 requested, 8 free");
        heartbeat("roomy", 16);
        await().atMost(WAIT).until(() -> attempt("roomy"), r -> r != null);
    }

    @Test
    void deletingTheJobDeletesTheRemoteAttempt() throws Exception {
        String job = submitJob(1, 1);
        await().atMost(WAIT).until(() -> attempt("roomy"), r -> r != null);
        assertThat(client.delete("/apis/batch/v1/namespaces/team-a/jobs/" + job)).isEqualTo(200);
        await().atMost(WAIT).until(() -> attempt("roomy") == null);
    }

    @Test
    void anAttemptOfAnUnknownWorkloadIsGarbageCollected() {
        RemoteWorkload ghost = new RemoteWorkload();
        ghost.setMetadata(new ObjectMetaBuilder().withNamespace("team-a").withName("ghost")
                .addToLabels(Labels.ORIGIN, "test-manager").addToLabels(Labels.ATTEMPT_ID, "x").build());
        RemoteWorkloadSpec spec = new RemoteWorkloadSpec();
        spec.setOrigin("test-manager");
        spec.setWorkloadName("ghost");
        spec.setAttemptId("x");
        ghost.setSpec(spec);
        workers.get("small").agent().resources(RemoteWorkload.class).inNamespace("team-a").resource(ghost).create();
        await().atMost(WAIT).until(() -> attempt("small") == null);
    }

    @Test
    void aClusterWithABadKubeconfigPathIsInactiveAndSecretsCannotBeReadBack() throws Exception {
        client.create(MultiKueueObjects.multiKueueCluster("bad").kubeconfigPath("/no/such/kubeconfig"));
        JsonNode bad = await().atMost(WAIT).until(() -> client.get(KUEUE + "/multikueueclusters/bad"), c -> "False".equals(condition(c, "Active")));
        JsonNode active = bad.path("status").path("conditions").get(0);
        assertThat(active.path("reason").asText()).isEqualTo("ClientConnectionFailed");
        assertThat(active.path("message").asText()).contains("/no/such/kubeconfig");

        assertThat(client.send("GET", "/api/v1/namespaces/kueue-system/secrets/roomy-kubeconfig", null, null).statusCode()).isEqualTo(403);
        HttpResponse<String> list = client.send("GET", "/api/v1/namespaces/kueue-system/secrets", null, null);
        assertThat(list.statusCode()).isEqualTo(403);
        assertThat(list.body()).doesNotContain("clusters");
        assertThat(condition(client.get(KUEUE + "/admissionchecks/dispatch"), "Active")).isEqualTo("True");
    }

    // ---- the test as agent ---------------------------------------------------------------

    private void heartbeat(String cluster, int freeGpus) {
        workers.get(cluster).heartbeat(freeGpus);
    }

    private RemoteWorkload attempt(String cluster) {
        return workers.get(cluster).attempt();
    }

    // ---- the user ---------------------------------------------------------------------------

    private String submitJob(int pods, int gpusPerPod) {
        client.create(DispatchQueues.job("train", pods, gpusPerPod));
        return "train";
    }

    private JsonNode workload() {
        List<JsonNode> items = client.items(KUEUE + "/namespaces/team-a/workloads");
        return items.isEmpty() ? null : items.get(0);
    }

    /** A worker cluster's API server whose next {@code late} RemoteWorkload creates take effect at once but are answered late. */
    private static final class LateCreates extends KubernetesCrudDispatcher {
        private final AtomicInteger late;

        LateCreates(AtomicInteger late) {
            this.late = late;
        }

        @Override
        public MockResponse dispatch(RecordedRequest request) {
            MockResponse response = super.dispatch(request);
            boolean create = "POST".equals(request.getMethod()) && request.getPath().contains("/remoteworkloads");
            if (create && late.getAndUpdate(n -> Math.max(0, n - 1)) > 0) response.setBodyDelay(LATE);
            return response;
        }
    }
}
