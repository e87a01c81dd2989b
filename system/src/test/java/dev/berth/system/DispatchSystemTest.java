package dev.berth.system;

import static dev.berth.system.ManagerHttp.checkMessage;
import static dev.berth.system.ManagerHttp.condition;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.store.MemoryObjectStore;
import dev.berth.protocol.crd.BerthCrds;
import dev.berth.protocol.Labels;
import dev.berth.protocol.crd.RemoteWorkload;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Berth end to end: the manager over real HTTP, three virtual GPU clusters each in its own process
 * (fabric8's mock API server in CRUD mode with the node and pod simulator), and an agent per cluster.
 * Jobs are submitted the way users submit them and observed on the manager and on the clusters.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DispatchSystemTest {
    private static final Duration PATIENCE = Duration.ofSeconds(90);
    private static final String A100 = "NVIDIA-A100-SXM4-40GB";
    private static final String H100 = "NVIDIA-H100-80GB-HBM3";
    private static final Set<String> A100_CLUSTERS = Set.of("a100-ondemand", "a100-spot");

    private BerthSystem system;
    private ManagerHttp api;

    @BeforeAll
    void start() throws Exception {
        Path dir = Files.createTempDirectory("berth-system-test");
        system = BerthSystem.start(dir, List.of(
                        new WorkerClusterSpec("a100-ondemand", "a100:2x8,cpu:2", false),
                        new WorkerClusterSpec("h100", "h100:2x8,cpu:2", false),
                        new WorkerClusterSpec("a100-spot", "a100:2x8,cpu:2", true)),
                new MemoryObjectStore(), SchedulerOptions.DEFAULTS, "127.0.0.1", 0,
                List.of(Path.of("..", "examples", "queues"), Path.of("..", "examples", "multikueue")));
        api = new ManagerHttp(system.apiUrl());
        await().atMost(PATIENCE).until(() -> api.get("/apis/kueue.x-k8s.io/v1beta2/multikueueclusters").path("items").size() == 3
                && allConnected());
    }

    private boolean allConnected() {
        for (JsonNode cluster : api.get("/apis/kueue.x-k8s.io/v1beta2/multikueueclusters").path("items")) {
            if (!"True".equals(cluster.path("status").path("conditions").path(0).path("status").asText())) return false;
        }
        return true;
    }

    @AfterAll
    void stop() {
        if (system != null) system.close();
    }

    private void submit(String yaml) {
        submit("team-a", yaml);
    }

    private void submit(String namespace, String yaml) {
        assertThat(api.send("POST", "/apis/batch/v1/namespaces/" + namespace + "/jobs", "application/yaml", yaml).statusCode()).isEqualTo(201);
    }

    private JsonNode finishedWorkload(String job) {
        return await().atMost(PATIENCE).until(() -> api.workloadOfJob("team-a", job), w -> "True".equals(condition(w, "Finished")));
    }

    @Test
    void aJobRunsToCompletionOnAWorkerAndItsStatusIsMirrored() {
        submit(Jobs.job("team-a", "mirror", "team-a-queue", 2, 2, 1, "PT1S", null));

        JsonNode workload = finishedWorkload("mirror");
        assertThat(workload.path("status").path("conditions").toString()).contains("\"Succeeded\"");
        assertThat(workload.path("status").path("clusterName").asText()).isIn(A100_CLUSTERS);
        assertThat(workload.path("status").path("dispatch").path("podsSucceeded").asInt()).isEqualTo(2);
        JsonNode job = api.get("/apis/batch/v1/namespaces/team-a/jobs/mirror");
        assertThat(job.path("status").path("succeeded").asInt()).isEqualTo(2);
        assertThat(job.path("status").path("conditions").toString()).contains("Complete");
    }

    @Test
    void aWorkloadGoesOnlyToClustersThatHaveItsFlavor() {
        submit(Jobs.job("team-a", "wants-h100", "team-a-queue", 1, 1, 2, "PT1S", H100));
        submit(Jobs.job("team-a", "wants-a100", "team-a-queue", 1, 1, 2, "PT1S", A100));

        assertThat(finishedWorkload("wants-h100").path("status").path("clusterName").asText()).isEqualTo("h100");
        assertThat(finishedWorkload("wants-a100").path("status").path("clusterName").asText()).isIn(A100_CLUSTERS);
    }

    @Test
    void aFullClusterIsSkipped() {
        // Two 6-GPU pods take one A100 cluster's two 8-GPU nodes; no node there has 4 GPUs left.
        submit(Jobs.job("team-a", "fills-a-cluster", "team-a-queue", 2, 8, 6, "PT120S", A100));
        JsonNode big = await().atMost(PATIENCE).until(() -> api.workloadOfJob("team-a", "fills-a-cluster"),
                w -> w != null && "Running".equals(w.path("status").path("dispatch").path("phase").asText()));
        String full = big.path("status").path("clusterName").asText();

        // team-a has used up its A100 quota; team-b still has 4 GPUs of its own.
        submit("team-b", Jobs.job("team-b", "needs-room", "team-b-queue", 1, 1, 4, "PT1S", A100));
        JsonNode room = await().atMost(PATIENCE).until(() -> api.workloadOfJob("team-b", "needs-room"),
                w -> w != null && !w.path("status").path("clusterName").asText().isEmpty());

        assertThat(room.path("status").path("clusterName").asText()).isIn(A100_CLUSTERS).isNotEqualTo(full);
        deleteJob("fills-a-cluster");
        assertThat(api.send("DELETE", "/apis/batch/v1/namespaces/team-b/jobs/needs-room", null, null).statusCode()).isEqualTo(200);
    }

    @Test
    void aWorkloadThatFitsNowhereWaitsWithEachClustersReason() {
        submit(Jobs.job("team-a", "too-big", "team-a-queue", 1, 4, 9, "PT1S", H100));

        JsonNode waiting = await().atMost(PATIENCE).until(() -> api.workloadOfJob("team-a", "too-big"),
                w -> checkMessage(w) != null && checkMessage(w).contains("no worker cluster"));
        String message = checkMessage(waiting);
        assertThat(message).contains("h100: no capacity").contains("a100-ondemand: flavor h100 missing")
                .contains("a100-spot: flavor h100 missing");
        assertThat(condition(waiting, "Admitted")).isNotEqualTo("True");
        deleteJob("too-big");
    }

    @Test
    void deletingAJobRemovesWhatRunsForItOnTheWorker() {
        submit(Jobs.job("team-a", "to-delete", "team-a-queue", 1, 1, 1, "PT120S", H100));
        await().atMost(PATIENCE).until(() -> remoteJob("h100", "to-delete") != null);

        deleteJob("to-delete");

        await().atMost(PATIENCE).until(() -> remoteJob("h100", "to-delete") == null && remoteAttempts("h100").stream()
                .noneMatch(r -> r.getMetadata().getName().startsWith("job-to-delete-")));
        assertThat(api.workloadOfJob("team-a", "to-delete")).isNull();
    }

    @Test
    void aCopyAnAdministratorDeletedOnTheWorkerIsPlacedAgainAndRunsToItsEnd() {
        submit(Jobs.job("team-a", "deleted-remotely", "team-a-queue", 1, 1, 1, "PT20S", H100));
        Job first = await().atMost(PATIENCE).until(() -> remoteJob("h100", "deleted-remotely"), job -> job != null);
        String firstAttempt = first.getMetadata().getLabels().get(Labels.ATTEMPT_ID);

        system.worker("h100").client().batch().v1().jobs().inNamespace("team-a").withName("deleted-remotely").delete();
        system.worker("h100").client().pods().inNamespace("team-a").withLabel(Labels.ATTEMPT_ID, firstAttempt).delete();

        // stopped by its agent once nothing of it is seen for the grace, then placed again under a new attempt
        JsonNode finished = finishedWorkload("deleted-remotely");
        assertThat(finished.path("status").path("conditions").toString()).contains("\"Succeeded\"");
        assertThat(finished.path("status").path("dispatch").path("attemptId").asText()).isNotEqualTo(firstAttempt);
        assertThat(finished.path("status").path("dispatchHistory")).anySatisfy(entry -> {
            assertThat(entry.path("attemptId").asText()).isEqualTo(firstAttempt);
            assertThat(entry.toString()).contains("ObjectsDeleted");
        });
    }

    @Test
    void anEvictionInTheManagerStopsTheWorkOnTheWorker() {
        submit("team-b", Jobs.job("team-b", "to-evict", "team-b-queue", 1, 1, 1, "PT120S", H100));
        await().atMost(PATIENCE).until(() -> remoteJob("h100", "team-b", "to-evict") != null);

        String drain = "{\"spec\":{\"stopPolicy\":\"HoldAndDrain\"}}";
        assertThat(api.send("PATCH", "/apis/kueue.x-k8s.io/v1beta2/clusterqueues/team-b-cq", "application/merge-patch+json", drain)
                .statusCode()).isEqualTo(200);
        try {
            await().atMost(PATIENCE).until(() -> remoteJob("h100", "team-b", "to-evict") == null);
            // As in Kueue, an evicted workload keeps its quota until its job has stopped: here until the
            // dispatcher has confirmed that the copy's pods on the worker are gone (issue 20, rule 4).
            await().atMost(PATIENCE).until(() -> "False".equals(condition(api.workloadOfJob("team-b", "to-evict"), "QuotaReserved")));
            JsonNode evicted = api.workloadOfJob("team-b", "to-evict");
            assertThat(condition(evicted, "Evicted")).isEqualTo("True");
        } finally {
            String resume = "{\"spec\":{\"stopPolicy\":\"None\"}}";
            api.send("PATCH", "/apis/kueue.x-k8s.io/v1beta2/clusterqueues/team-b-cq", "application/merge-patch+json", resume);
            api.send("DELETE", "/apis/batch/v1/namespaces/team-b/jobs/to-evict", null, null);
        }
    }

    @Test
    void quotaIsReleasedWhenTheJobFinishes() {
        submit(Jobs.job("team-a", "quota", "team-a-queue", 1, 2, 4, "PT2S", H100));
        await().atMost(PATIENCE).until(() -> reserved("team-a-cq", "h100", "nvidia.com/gpu").equals("4"));
        finishedWorkload("quota");
        await().atMost(PATIENCE).until(() -> reserved("team-a-cq", "h100", "nvidia.com/gpu").equals("0"));
    }

    @Test
    void aNewResourceFlavorReachesEveryWorkersCatalogue() {
        String flavor = "{\"apiVersion\":\"kueue.x-k8s.io/v1beta2\",\"kind\":\"ResourceFlavor\",\"metadata\":{\"name\":\"l4-catalogue\"},"
                + "\"spec\":{\"nodeLabels\":{\"nvidia.com/gpu.product\":\"NVIDIA-L4\"}}}";
        assertThat(api.send("POST", "/apis/kueue.x-k8s.io/v1beta2/resourceflavors", "application/json", flavor).statusCode()).isEqualTo(201);
        try {
            // The catalogue exists on every worker already: the manager replaces it (create answers 409, then update).
            for (RunningWorker worker : system.workers()) {
                await().atMost(PATIENCE).until(() -> catalogue(worker).contains("l4-catalogue"));
            }
        } finally {
            api.send("DELETE", "/apis/kueue.x-k8s.io/v1beta2/resourceflavors/l4-catalogue", null, null);
        }
    }

    private static String catalogue(RunningWorker worker) {
        var map = worker.client().configMaps().inNamespace(BerthCrds.SYSTEM_NAMESPACE).withName(BerthCrds.FLAVOR_CATALOGUE).get();
        return map == null || map.getData() == null ? "" : map.getData().getOrDefault(BerthCrds.FLAVOR_CATALOGUE_KEY, "");
    }

    private String reserved(String clusterQueue, String flavor, String resource) {
        JsonNode queue = api.get("/apis/kueue.x-k8s.io/v1beta2/clusterqueues/" + clusterQueue);
        for (JsonNode usage : queue.path("status").path("flavorsReservation")) {
            if (!usage.path("name").asText().equals(flavor)) continue;
            for (JsonNode amount : usage.path("resources")) {
                if (amount.path("name").asText().equals(resource)) return amount.path("total").asText();
            }
        }
        return "missing";
    }

    private void deleteJob(String name) {
        assertThat(api.send("DELETE", "/apis/batch/v1/namespaces/team-a/jobs/" + name, null, null).statusCode()).isEqualTo(200);
    }

    private Job remoteJob(String cluster, String name) {
        return remoteJob(cluster, "team-a", name);
    }

    private Job remoteJob(String cluster, String namespace, String name) {
        return system.worker(cluster).client().batch().v1().jobs().inNamespace(namespace).withName(name).get();
    }

    private List<RemoteWorkload> remoteAttempts(String cluster) {
        return system.worker(cluster).client().resources(RemoteWorkload.class).inAnyNamespace().list().getItems();
    }
}
