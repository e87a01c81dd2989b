package dev.berth.manager.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.manager.dispatch.PlacementOptions;
import dev.berth.manager.dispatch.UnservedFlavorOptions;
import dev.berth.manager.testing.DispatchQueues;
import dev.berth.manager.testing.KueueObjects;
import dev.berth.manager.testing.ManagerClient;
import dev.berth.manager.testing.ManagerHarness;
import dev.berth.manager.testing.MockWorkerCluster;
import dev.berth.manager.testing.MockWorkerClusters;
import dev.berth.manager.testing.MultiKueueObjects;
import dev.berth.protocol.crd.RemoteWorkload;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 20, rule 2, end to end: quota held in a flavor that no connected worker cluster offers is
 * released after --unserved-flavor-timeout (the MultiKueue check turns Retry), another workload takes
 * the quota in its place, and the workload runs once a cluster offering the flavor joins. Worker
 * clusters are fabric8 CRUD mock API servers on loopback; the test plays their agents.
 */
class UnservedFlavorEndToEndTest {
    private static final String KUEUE = ManagerClient.KUEUE;
    private static final Duration TIMEOUT = Duration.ofSeconds(4);
    private static final Duration WAIT = Duration.ofSeconds(30);

    @RegisterExtension
    final ManagerHarness harness = ManagerHarness.empty().dispatchOptions(
            new DispatchOptions("test-manager", Duration.ofSeconds(60), Duration.ofMillis(100), PlacementOptions.DEFAULTS)
                    .withUnservedFlavors(new UnservedFlavorOptions(TIMEOUT, Duration.ofSeconds(1))));
    @RegisterExtension
    final MockWorkerClusters workers = new MockWorkerClusters();

    @Test
    void quotaInAFlavorNoClusterOffersIsReleasedTakenByAnotherAndTheWorkloadRunsOnceAClusterOffersIt() throws Exception {
        ManagerClient client = harness.client();
        MockWorkerCluster spot = worker("a100-spot", "a100");
        queues(client, "a100-spot");
        submit(client, "first");
        awaitReserved(client, "first");
        submit(client, "second");

        JsonNode holding = await().atMost(WAIT).until(() -> workload(client, "first"),
                w -> dispatchMessage(w).startsWith("no connected worker cluster offers flavor h100"));
        assertThat(dispatchMessage(holding)).isEqualTo("no connected worker cluster offers flavor h100 (a100-spot offers a100); "
                + "its quota is released at " + dispatchMessage(holding).replaceAll(".* released at (\\S+) .*", "$1")
                + " (after 4s) unless a worker cluster offering it connects");
        assertThat(ManagerClient.condition(workload(client, "second"), "QuotaReserved")).isEqualTo("False");

        JsonNode released = await().atMost(WAIT).until(() -> workload(client, "first"),
                w -> "False".equals(ManagerClient.condition(w, "QuotaReserved")) && "True".equals(ManagerClient.condition(w, "Evicted")));
        assertThat(ManagerClient.findCondition(released, "Evicted").path("reason").asText()).isEqualTo("AdmissionCheck");
        assertThat(dispatchMessage(released)).isEqualTo("no connected worker cluster offers flavor h100 (a100-spot offers a100); "
                + "quota released after 4s, retrying");
        assertThat(released.path("status").path("admissionChecks").get(0).path("retryCount").asInt()).isEqualTo(1);
        awaitReserved(client, "second");
        assertThat(spot.attempts()).as("nothing was sent to a cluster without the flavor").isEmpty();

        JsonNode explanation = client.get(KUEUE + "/namespaces/team-a/workloads/" + workloadName(client, "first") + "/explain");
        assertThat(explanation.path("answer").asText()).isEqualTo("No connected worker cluster offers flavor h100 "
                + "(a100-spot offers a100); quota released after 4s, retrying.");
        JsonNode pending = await().atMost(WAIT).until(() -> workload(client, "first"),
                w -> ManagerClient.findCondition(w, "QuotaReserved").path("message").asText().contains("flavor h100 skipped"));
        assertThat(ManagerClient.findCondition(pending, "QuotaReserved").path("message").asText())
                .contains("flavor h100 skipped: no connected worker cluster offers it");

        MockWorkerCluster h100 = worker("gpu-h", "h100");
        client.mergePatch(KUEUE + "/multikueueconfigs/workers", "{\"spec\":{\"clusters\":[\"a100-spot\",\"gpu-h\"]}}");
        h100.connect(client);
        // Both may have been released by now (each held h100 quota for longer than the timeout); whichever holds
        // the quota when gpu-h joins runs there, then the other: both run, on the cluster that offers h100.
        RemoteWorkload firstToRun = await().atMost(WAIT).until(() -> h100.attempts().stream().findFirst().orElse(null), r -> r != null);
        h100.reportSucceeded(firstToRun, 1);
        String other = firstToRun.getSpec().getWorkloadName().equals(workloadName(client, "first")) ? "second" : "first";
        RemoteWorkload secondToRun = await().atMost(WAIT).until(() -> h100.attemptOf(workloadName(client, other)), r -> r != null);
        assertThat(secondToRun.getSpec().getPodSets()).singleElement()
                .satisfies(p -> assertThat(p.getFlavors()).containsEntry("nvidia.com/gpu", "h100"));
        h100.reportRunning(secondToRun, 1);
        await().atMost(WAIT).until(() -> "True".equals(ManagerClient.condition(workload(client, other), "Admitted")));
        JsonNode first = workload(client, "first");
        assertThat("True".equals(ManagerClient.condition(first, "Finished")) || "True".equals(ManagerClient.condition(first, "Admitted")))
                .as("the first workload ran").isTrue();
        assertThat(spot.attempts()).isEmpty();
    }

    @Test
    void quotaInAFlavorThatIsOfferedButFullIsKept() throws Exception {
        ManagerClient client = harness.client();
        worker("a100-spot", "a100");
        worker("gpu-h", "h100").heartbeat(offering("h100", 0));
        queues(client, "a100-spot", "gpu-h");
        submit(client, "first");
        awaitReserved(client, "first");

        JsonNode waiting = await().atMost(WAIT).until(() -> workload(client, "first"),
                w -> dispatchMessage(w).contains("gpu-h: no capacity"));
        await().pollDelay(TIMEOUT.plusSeconds(2)).atMost(WAIT).until(() -> true);

        JsonNode later = workload(client, "first");
        assertThat(ManagerClient.condition(later, "QuotaReserved")).isEqualTo("True");
        assertThat(ManagerClient.condition(later, "Evicted")).isNotEqualTo("True");
        assertThat(dispatchMessage(later)).isEqualTo(dispatchMessage(waiting));
    }

    // ---- the fleet ------------------------------------------------------------------------

    /** A worker cluster offering one flavor (16 GPUs free, 8 on its largest node), whose agent beats every second. */
    private MockWorkerCluster worker(String name, String flavor) {
        return workers.start(name).heartbeat(offering(flavor, 16)).beatEvery(Duration.ofSeconds(1));
    }

    private static MockWorkerCluster.Capacity offering(String flavor, int freeGpus) {
        return new MockWorkerCluster.Capacity(flavor, 2, freeGpus, Math.min(8, freeGpus), 32, null);
    }

    private void queues(ManagerClient client, String... clusters) {
        client.create(KueueObjects.namespace("team-a"));
        for (String flavor : List.of("h100", "a100")) client.create(KueueObjects.resourceFlavor(flavor).nodeLabel("gpu", flavor));
        client.create(MultiKueueObjects.multiKueueConfig("workers", clusters));
        client.create(MultiKueueObjects.multiKueueCheck("dispatch", "workers"));
        client.create(KueueObjects.clusterQueue("cq").quota("h100", "cpu", 64).quota("h100", "nvidia.com/gpu", 8).admissionCheck("dispatch"));
        client.create(KueueObjects.localQueue("team-a", "lq").clusterQueue("cq"));
        for (String cluster : clusters) workers.get(cluster).connect(client);
    }

    // ---- the user -------------------------------------------------------------------------

    private static void submit(ManagerClient client, String name) {
        client.create(DispatchQueues.job(name, 1, 8));
    }

    private static void awaitReserved(ManagerClient client, String job) {
        await().atMost(WAIT).until(() -> "True".equals(ManagerClient.condition(workload(client, job), "QuotaReserved")));
    }

    /** The workload of the job (Kueue names it job-NAME-hash). */
    private static JsonNode workload(ManagerClient client, String job) {
        for (JsonNode item : client.items(KUEUE + "/namespaces/team-a/workloads")) {
            if (item.path("metadata").path("name").asText().startsWith("job-" + job + "-")) return item;
        }
        return null;
    }

    private static String workloadName(ManagerClient client, String job) {
        JsonNode workload = workload(client, job);
        return workload == null ? "" : workload.path("metadata").path("name").asText();
    }

    private static String dispatchMessage(JsonNode workload) {
        if (workload == null) return "";
        return workload.path("status").path("admissionChecks").path(0).path("message").asText();
    }
}
