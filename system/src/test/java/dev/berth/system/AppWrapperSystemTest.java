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
import dev.berth.protocol.AppWrapperApi;
import dev.berth.protocol.Labels;
import dev.berth.virtualcluster.PodInterval;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * AppWrapper end to end through the real kubectl: the example in examples/jobs is created on the manager,
 * queued with one pod set per declared pod set, dispatched to a virtual A100 cluster whose simulated
 * AppWrapper controller creates the wrapped batch Job (whose pods the Job controller runs), mirrored back so
 * {@code kubectl get appwrappers} on the manager shows the worker's phase and conditions, finished, and deleted.
 */
@NeedsKubectl
class AppWrapperSystemTest {
    @RegisterExtension
    static final SingleWorkerSystem bed = new SingleWorkerSystem("appwrapper");

    @Test
    void anAppWrappedJobRunsOnAWorkerSucceedsWhenItsPodsDoAndKubectlShowsTheWorkersState() throws Exception {
        assertThat(bed.kubectl().run("api-resources", "--api-group=workload.codeflare.dev").ok().stdout())
                .containsPattern("appwrappers\\s+aw\\s+workload.codeflare.dev/v1beta2\\s+true\\s+AppWrapper");
        assertThat(bed.kubectl().run("explain", "appwrapper.spec.components").ok().stdout()).contains("podSets");
        assertThat(bed.kubectl().run("create", "-f", "examples/jobs/appwrapper.yaml").ok().stdout())
                .contains("appwrapper.workload.codeflare.dev/appwrapper-job created");

        JsonNode queued = await().atMost(PATIENCE).until(() -> bed.api().workloadOfJob("team-a", "appwrapper-job"), w -> w != null);
        assertThat(podSets(queued)).isEqualTo(Map.of("appwrapper-job-0", 2));
        assertThat(bed.kubectl().jsonpath("team-a", "appwrapper", "appwrapper-job", ".spec.managedBy"))
                .as("Kueue's managedBy default on the manager's copy").isEqualTo("kueue.x-k8s.io/multikueue");

        GenericKubernetesResource remote = awaitRemote("appwrapper-job");
        @SuppressWarnings("unchecked")
        Map<String, Object> spec = (Map<String, Object>) remote.getAdditionalProperties().get("spec");
        assertThat(spec).as("the worker's AppWrapper controller runs its copy").doesNotContainKey("managedBy").containsEntry("suspend", false);
        String attempt = remote.getMetadata().getLabels().get(Labels.ATTEMPT_ID);
        assertThat(attempt).isNotBlank();
        assertThat(remote.getMetadata().getLabels()).doesNotContainKey(Labels.QUEUE_NAME);

        JsonNode finished = await().atMost(PATIENCE).until(() -> bed.api().workloadOfJob("team-a", "appwrapper-job"),
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

        await().atMost(PATIENCE).until(() -> bed.kubectl().jsonpath("team-a", "appwrapper", "appwrapper-job", ".status.phase"), "Succeeded"::equals);
        String table = bed.kubectl().run("get", "appwrappers", "-n", "team-a").ok().stdout();
        assertThat(table.lines().findFirst().orElse("")).containsPattern("^NAME\\s+STATUS\\s+QUOTA RESERVED\\s+RESOURCES DEPLOYED\\s+UNHEALTHY\\s+AGE$");
        assertThat(table).containsPattern("appwrapper-job\\s+Succeeded\\s+True\\s+True\\s+");
        assertThat(bed.kubectl().run("describe", "appwrapper", "appwrapper-job", "-n", "team-a").ok().stdout())
                .contains("Components").contains("CreatedWorkload");

        assertThat(bed.kubectl().run("delete", "-f", "examples/jobs/appwrapper.yaml").ok().stdout()).contains("deleted");
        await().atMost(PATIENCE).until(() -> bed.api().workloadOfJob("team-a", "appwrapper-job") == null);
        await().atMost(PATIENCE).until(() -> remoteCopies().isEmpty());
    }

    @Test
    void anAppWrapperWithAFailingPodFailsAndIsStoppedOnTheWorker() throws Exception {
        String yaml = Files.readString(Path.of("..", "examples", "jobs", "appwrapper.yaml"))
                .replace("name: appwrapper-job", "name: appwrapper-failing").replace("name: wrapped-job", "name: wrapped-failing")
                .replace("berth.dev/sim-runtime: \"3\"", "berth.dev/sim-runtime: \"2\"\n              berth.dev/sim-exit-code: \"1\"");
        Path file = Files.writeString(Files.createTempFile("appwrapper-failing", ".yaml"), yaml);
        bed.kubectl().run("create", "-f", file.toString()).ok();

        JsonNode finished = await().atMost(PATIENCE).until(() -> bed.api().workloadOfJob("team-a", "appwrapper-failing"),
                w -> w != null && "True".equals(condition(w, "Finished")));
        assertThat(finished.path("status").path("conditions").toString()).contains("\"Failed\"");
        await().atMost(PATIENCE).until(() -> bed.kubectl().jsonpath("team-a", "appwrapper", "appwrapper-failing", ".status.phase"), "Failed"::equals);

        bed.kubectl().run("delete", "-f", file.toString()).ok();
        await().atMost(PATIENCE).until(() -> remoteCopies().isEmpty());
        await().atMost(PATIENCE).until(() -> podsOf("appwrapper-failing").stream().allMatch(PodInterval::ended));
    }

    private GenericKubernetesResource awaitRemote(String name) {
        return bed.awaitRemote(AppWrapperApi.API_VERSION, AppWrapperApi.KIND, name);
    }

    private List<GenericKubernetesResource> remoteCopies() {
        return bed.remoteCopies(AppWrapperApi.API_VERSION, AppWrapperApi.KIND);
    }

    private List<PodInterval> podsOf(String appWrapper) {
        return bed.podsLabelled(AppWrapperApi.APPWRAPPER_LABEL, appWrapper);
    }
}
