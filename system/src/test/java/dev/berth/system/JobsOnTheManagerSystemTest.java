package dev.berth.system;

import static dev.berth.system.ManagerHttp.condition;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.store.MemoryObjectStore;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The Job on the manager as MultiKueue keeps the Job on its management cluster, end to end with one
 * virtual cluster and its agent: the worker Job's whole status mirrored (conditions with reasons and
 * times, startTime, completionTime, active, ready, succeeded, failed, terminating,
 * uncountedTerminatedPods), kube's table columns over it, spec.managedBy and the generated selector,
 * and Kueue's events on the Job.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JobsOnTheManagerSystemTest {
    private static final Duration PATIENCE = Duration.ofSeconds(90);
    private static final String H100 = "NVIDIA-H100-80GB-HBM3";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io";

    private BerthSystem system;
    private ManagerHttp api;

    @BeforeAll
    void start() throws Exception {
        Path dir = Files.createTempDirectory("berth-jobs-system-test");
        system = BerthSystem.start(dir, List.of(new WorkerClusterSpec("h100", "h100:2x8,cpu:2", false)),
                new MemoryObjectStore(), SchedulerOptions.DEFAULTS, "127.0.0.1", 0,
                List.of(Path.of("..", "examples", "queues"), Path.of("..", "examples", "multikueue")));
        api = new ManagerHttp(system.apiUrl());
        await().atMost(PATIENCE).until(() -> "True".equals(
                api.get("/apis/kueue.x-k8s.io/v1beta2/multikueueclusters").path("items").path(0).path("status").path("conditions")
                        .path(0).path("status").asText()));
    }

    @AfterAll
    void stop() {
        if (system != null) system.close();
    }

    @Test
    void aCompletedJobCarriesItsWorkersWholeStatusAndKubesColumns() {
        submit(Jobs.job("team-a", "mirrored", "team-a-queue", 2, 1, 1, "PT1S", H100));
        JsonNode job = await().atMost(PATIENCE).until(() -> job("mirrored"),
                j -> "Complete".equals(lastConditionType(j)) && "True".equals(condition(api.workloadOfJob("team-a", "mirrored"), "Finished")));

        JsonNode status = job.path("status");
        assertThat(conditions(status)).containsExactly("SuccessCriteriaMet/True/CompletionsReached", "Complete/True/CompletionsReached");
        for (JsonNode c : status.path("conditions")) {
            assertThat(c.path("lastTransitionTime").asText()).isNotEmpty();
            assertThat(c.path("message").asText()).isEqualTo("Reached expected number of succeeded pods");
        }
        assertThat(status.path("startTime").asText()).isNotEmpty();
        assertThat(status.path("completionTime").asText()).isNotEmpty();
        assertThat(status.path("succeeded").asInt()).isEqualTo(2);
        assertThat(status.path("failed").asInt(-1)).isZero();
        assertThat(status.path("active").asInt(-1)).isZero();
        assertThat(status.path("ready").asInt(-1)).isZero();
        assertThat(status.path("terminating").asInt(-1)).isZero();
        assertThat(status.path("uncountedTerminatedPods").isObject()).isTrue();

        assertThat(job.path("spec").path("suspend").asBoolean(true)).isFalse();
        assertThat(job.path("spec").path("managedBy").asText()).isEqualTo("kueue.x-k8s.io/multikueue");
        assertThat(job.path("spec").path("selector").path("matchLabels").path("batch.kubernetes.io/controller-uid").asText())
                .isEqualTo(job.path("metadata").path("uid").asText());

        JsonNode row = tableRow("/apis/batch/v1/namespaces/team-a/jobs/mirrored");
        assertThat(cell(row, 0)).isEqualTo("mirrored");
        assertThat(cell(row, 1)).isEqualTo("Complete");
        assertThat(cell(row, 2)).isEqualTo("2/2");
        assertThat(cell(row, 3)).matches("\\d+s");

        assertThat(eventReasons(job)).contains("CreatedWorkload", "Started", "FinishedWorkload");
    }

    @Test
    void aRunningJobShowsItsActiveAndReadyPodsAndTheWorkerCopyIsTheWorkersOwn() {
        submit(Jobs.job("team-a", "running", "team-a-queue", 1, 1, 1, "PT120S", H100));
        try {
            JsonNode job = await().atMost(PATIENCE).until(() -> job("running"),
                    j -> j.path("status").path("ready").asInt(0) == 1);
            assertThat(job.path("status").path("active").asInt()).isEqualTo(1);
            assertThat(job.path("status").path("startTime").asText()).isNotEmpty();
            assertThat(job.path("status").has("completionTime")).isFalse();
            JsonNode row = tableRow("/apis/batch/v1/namespaces/team-a/jobs/running");
            assertThat(cell(row, 1)).isEqualTo("Running");
            assertThat(cell(row, 2)).isEqualTo("0/1");
            assertThat(cell(row, 3)).matches("\\d+s");

            Job remote = system.worker("h100").client().batch().v1().jobs().inNamespace("team-a").withName("running").get();
            assertThat(remote.getSpec().getManagedBy()).isNull();
            assertThat(remote.getMetadata().getUid()).isNotEqualTo(job.path("metadata").path("uid").asText());
        } finally {
            api.send("DELETE", "/apis/batch/v1/namespaces/team-a/jobs/running", null, null);
        }
    }

    @Test
    void aFailedJobCarriesFailureTargetAndFailed() {
        String yaml = Jobs.job("team-a", "crashes", "team-a-queue", 1, 1, 1, "PT1S", H100)
                .replace("berth.dev/sim-runtime: PT1S", "berth.dev/sim-runtime: PT1S\n        berth.dev/sim-exit-code: \"1\"")
                .replace("  suspend: true", "  suspend: true\n  backoffLimit: 0");
        submit(yaml);
        JsonNode job = await().atMost(PATIENCE).until(() -> job("crashes"), j -> "Failed".equals(lastConditionType(j)));

        assertThat(conditions(job.path("status"))).containsExactly("FailureTarget/True/BackoffLimitExceeded", "Failed/True/BackoffLimitExceeded");
        assertThat(job.path("status").path("failed").asInt()).isEqualTo(1);
        assertThat(cell(tableRow("/apis/batch/v1/namespaces/team-a/jobs/crashes"), 1)).isEqualTo("Failed");
    }

    @Test
    void aPlainPodCarriesItsWorkerPodsStatus() {
        String pod = """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: plain
                  namespace: team-a
                  labels:
                    kueue.x-k8s.io/queue-name: team-a-queue
                  annotations:
                    berth.dev/sim-runtime: PT1S
                spec:
                  restartPolicy: Never
                  nodeSelector:
                    nvidia.com/gpu.product: %s
                  containers:
                  - name: main
                    image: registry.example/train:1
                    resources:
                      requests:
                        cpu: "1"
                        nvidia.com/gpu: "1"
                      limits:
                        nvidia.com/gpu: "1"
                """.formatted(H100);
        assertThat(api.send("POST", "/api/v1/namespaces/team-a/pods", "application/yaml", pod).statusCode()).isEqualTo(201);
        assertThat(cell(podRow("plain"), 2)).isEqualTo("SchedulingGated");

        JsonNode done = await().atMost(PATIENCE).until(() -> api.get("/api/v1/namespaces/team-a/pods/plain"),
                p -> "Succeeded".equals(p.path("status").path("phase").asText()));
        JsonNode status = done.path("status");
        assertThat(status.path("startTime").asText()).isNotEmpty();
        assertThat(status.path("containerStatuses").path(0).path("name").asText()).isEqualTo("main");
        assertThat(status.path("containerStatuses").path(0).path("state").path("terminated").path("reason").asText()).isEqualTo("Completed");
        assertThat(status.path("conditions").toString()).contains("\"PodScheduled\"").contains("\"Ready\"");
        JsonNode row = podRow("plain");
        assertThat(cell(row, 1)).isEqualTo("0/1");
        assertThat(cell(row, 2)).isEqualTo("Completed");
        assertThat(cell(row, 3)).isEqualTo("0");
    }

    private JsonNode podRow(String name) {
        return table("/api/v1/namespaces/team-a/pods/" + name).path("rows").path(0);
    }

    private void submit(String yaml) {
        assertThat(api.send("POST", "/apis/batch/v1/namespaces/team-a/jobs", "application/yaml", yaml).statusCode()).isEqualTo(201);
    }

    private JsonNode job(String name) {
        return api.get("/apis/batch/v1/namespaces/team-a/jobs/" + name);
    }

    private static String lastConditionType(JsonNode job) {
        JsonNode conditions = job.path("status").path("conditions");
        return conditions.size() == 0 ? "" : conditions.get(conditions.size() - 1).path("type").asText();
    }

    private static List<String> conditions(JsonNode status) {
        List<String> out = new ArrayList<>();
        for (JsonNode c : status.path("conditions")) {
            out.add(c.path("type").asText() + "/" + c.path("status").asText() + "/" + c.path("reason").asText());
        }
        return out;
    }

    private List<String> eventReasons(JsonNode job) {
        String selector = "involvedObject.kind=Job,involvedObject.name=" + job.path("metadata").path("name").asText()
                + ",involvedObject.namespace=team-a,involvedObject.uid=" + job.path("metadata").path("uid").asText();
        JsonNode events = api.get("/api/v1/namespaces/team-a/events?fieldSelector=" + URLEncoder.encode(selector, StandardCharsets.UTF_8));
        List<String> reasons = new ArrayList<>();
        for (JsonNode event : events.path("items")) reasons.add(event.path("reason").asText());
        return reasons;
    }

    private JsonNode table(String path) {
        try {
            HttpResponse<String> response = api.exchange("GET", path, Map.of("Accept", TABLE), HttpRequest.BodyPublishers.noBody());
            return JSON.readTree(response.body());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private JsonNode tableRow(String path) {
        try {
            JsonNode table = table(path);
            List<String> columns = new ArrayList<>();
            table.path("columnDefinitions").forEach(c -> columns.add(c.path("name").asText()));
            assertThat(columns).containsExactly("Name", "Status", "Completions", "Duration", "Age", "Containers", "Images", "Selector");
            return table.path("rows").path(0);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String cell(JsonNode row, int index) {
        return row.path("cells").path(index).asText();
    }
}
