package dev.berth.system;

import static dev.berth.system.ManagerHttp.condition;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.store.MemoryObjectStore;
import dev.berth.manager.testing.NeedsKubectl;
import dev.berth.protocol.AppWrapperApi;
import dev.berth.protocol.Labels;
import dev.berth.virtualcluster.PodInterval;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * AppWrapper end to end through the real kubectl: the example in examples/jobs is created on the manager,
 * queued with one pod set per declared pod set, dispatched to a virtual A100 cluster whose simulated
 * AppWrapper controller creates the wrapped batch Job (whose pods the Job controller runs), mirrored back so
 * {@code kubectl get appwrappers} on the manager shows the worker's phase and conditions, finished, and deleted.
 */
@NeedsKubectl
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AppWrapperSystemTest {
    private static final Duration PATIENCE = Duration.ofSeconds(90);
    private static final String CLUSTER = "a100-ondemand";

    private BerthSystem system;
    private ManagerHttp api;
    private KubectlCli kubectl;

    @BeforeAll
    void start() throws Exception {
        Path dir = Files.createTempDirectory("berth-appwrapper-test");
        system = BerthSystem.start(dir, List.of(new WorkerClusterSpec(CLUSTER, "a100:2x8,cpu:2", false)),
                new MemoryObjectStore(), SchedulerOptions.DEFAULTS, "127.0.0.1", 0,
                List.of(Path.of("..", "examples", "queues"), Path.of("..", "examples", "multikueue")));
        api = new ManagerHttp(system.apiUrl());
        kubectl = KubectlCli.against(system.apiUrl(), dir.resolve("kubectl-home"));
        await().atMost(PATIENCE).until(() -> "True".equals(api.get("/apis/kueue.x-k8s.io/v1beta2/multikueueclusters/" + CLUSTER)
                .path("status").path("conditions").path(0).path("status").asText()));
    }

    @AfterAll
    void stop() {
        if (system != null) system.close();
    }

    @Test
    void anAppWrappedJobRunsOnAWorkerSucceedsWhenItsPodsDoAndKubectlShowsTheWorkersState() throws Exception {
        assertThat(kubectl.run("api-resources", "--api-group=workload.codeflare.dev").ok().stdout())
                .containsPattern("appwrappers\\s+aw\\s+workload.codeflare.dev/v1beta2\\s+true\\s+AppWrapper");
        assertThat(kubectl.run("explain", "appwrapper.spec.components").ok().stdout()).contains("podSets");
        assertThat(kubectl.run("create", "-f", "examples/jobs/appwrapper.yaml").ok().stdout())
                .contains("appwrapper.workload.codeflare.dev/appwrapper-job created");

        JsonNode queued = await().atMost(PATIENCE).until(() -> api.workloadOfJob("team-a", "appwrapper-job"), w -> w != null);
        assertThat(podSets(queued)).isEqualTo(Map.of("appwrapper-job-0", 2));
        assertThat(kubectl.jsonpath("team-a", "appwrapper", "appwrapper-job", ".spec.managedBy"))
                .as("Kueue's managedBy default on the manager's copy").isEqualTo("kueue.x-k8s.io/multikueue");

        GenericKubernetesResource remote = awaitRemote("appwrapper-job");
        @SuppressWarnings("unchecked")
        Map<String, Object> spec = (Map<String, Object>) remote.getAdditionalProperties().get("spec");
        assertThat(spec).as("the worker's AppWrapper controller runs its copy").doesNotContainKey("managedBy").containsEntry("suspend", false);
        String attempt = remote.getMetadata().getLabels().get(Labels.ATTEMPT_ID);
        assertThat(attempt).isNotBlank();
        assertThat(remote.getMetadata().getLabels()).doesNotContainKey(Labels.QUEUE_NAME);

        JsonNode finished = await().atMost(PATIENCE).until(() -> api.workloadOfJob("team-a", "appwrapper-job"),
                w -> "True".equals(condition(w, "Finished")));
        assertThat(finished.path("status").path("clusterName").asText()).isEqualTo(CLUSTER);
        assertThat(finished.path("status").path("conditions").toString()).contains("\"Succeeded\"");

        List<PodInterval> pods = podsOf("appwrapper-job");
        assertThat(pods).hasSize(2);
        assertThat(pods).allSatisfy(p -> {
            assertThat(p.pod()).startsWith("wrapped-job-");
            assertThat(p.attemptId()).isEqualTo(attempt);
            assertThat(p.endPhase()).isEqualTo("Succeeded");
        });

        await().atMost(PATIENCE).until(() -> kubectl.jsonpath("team-a", "appwrapper", "appwrapper-job", ".status.phase"), "Succeeded"::equals);
        String table = kubectl.run("get", "appwrappers", "-n", "team-a").ok().stdout();
        assertThat(table.lines().findFirst().orElse("")).containsPattern("^NAME\\s+STATUS\\s+QUOTA RESERVED\\s+RESOURCES DEPLOYED\\s+UNHEALTHY\\s+AGE$");
        assertThat(table).containsPattern("appwrapper-job\\s+Succeeded\\s+True\\s+True\\s+");
        assertThat(kubectl.run("describe", "appwrapper", "appwrapper-job", "-n", "team-a").ok().stdout())
                .contains("Components").contains("CreatedWorkload");

        assertThat(kubectl.run("delete", "-f", "examples/jobs/appwrapper.yaml").ok().stdout()).contains("deleted");
        await().atMost(PATIENCE).until(() -> api.workloadOfJob("team-a", "appwrapper-job") == null);
        await().atMost(PATIENCE).until(() -> remoteCopies().isEmpty());
    }

    @Test
    void anAppWrapperWithAFailingPodFailsAndIsStoppedOnTheWorker() throws Exception {
        String yaml = Files.readString(Path.of("..", "examples", "jobs", "appwrapper.yaml"))
                .replace("name: appwrapper-job", "name: appwrapper-failing").replace("name: wrapped-job", "name: wrapped-failing")
                .replace("berth.dev/sim-runtime: \"3\"", "berth.dev/sim-runtime: \"2\"\n              berth.dev/sim-exit-code: \"1\"");
        Path file = Files.writeString(Files.createTempFile("appwrapper-failing", ".yaml"), yaml);
        kubectl.run("create", "-f", file.toString()).ok();

        JsonNode finished = await().atMost(PATIENCE).until(() -> api.workloadOfJob("team-a", "appwrapper-failing"),
                w -> w != null && "True".equals(condition(w, "Finished")));
        assertThat(finished.path("status").path("conditions").toString()).contains("\"Failed\"");
        await().atMost(PATIENCE).until(() -> kubectl.jsonpath("team-a", "appwrapper", "appwrapper-failing", ".status.phase"), "Failed"::equals);

        kubectl.run("delete", "-f", file.toString()).ok();
        await().atMost(PATIENCE).until(() -> remoteCopies().isEmpty());
        await().atMost(PATIENCE).until(() -> podsOf("appwrapper-failing").stream().allMatch(PodInterval::ended));
    }

    private static Map<String, Integer> podSets(JsonNode workload) {
        Map<String, Integer> podSets = new java.util.LinkedHashMap<>();
        for (JsonNode podSet : workload.path("spec").path("podSets")) podSets.put(podSet.path("name").asText(), podSet.path("count").asInt());
        return podSets;
    }

    private GenericKubernetesResource awaitRemote(String name) {
        AtomicReference<GenericKubernetesResource> found = new AtomicReference<>();
        await().atMost(PATIENCE).pollInterval(Duration.ofMillis(50)).until(() -> {
            remoteCopies().stream().filter(r -> name.equals(r.getMetadata().getName())).findFirst().ifPresent(found::set);
            return found.get() != null;
        });
        return found.get();
    }

    private List<GenericKubernetesResource> remoteCopies() {
        return system.worker(CLUSTER).client().genericKubernetesResources(AppWrapperApi.API_VERSION, AppWrapperApi.KIND).inNamespace("team-a")
                .list().getItems();
    }

    private List<PodInterval> podsOf(String appWrapper) {
        return system.worker(CLUSTER).cluster().podLifetimes().stream()
                .filter(p -> appWrapper.equals(p.labels().get(AppWrapperApi.APPWRAPPER_LABEL))).toList();
    }
}
