package dev.berth.manager.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.manager.testing.ManagerHarness;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Reading a Kueue kind through kueue.x-k8s.io/v1beta1 gives the v1beta1 shape, on every path (get,
 * list, table, watch, status, and the object a create or patch answers with), and what is written
 * through one version reads the same through the other (issue 13).
 */
class V1beta1ReadShapeHttpTest {
    private static final String V1 = "/apis/kueue.x-k8s.io/v1beta1/clusterqueues";
    private static final String V2 = "/apis/kueue.x-k8s.io/v1beta2/clusterqueues";
    private static final ObjectMapper JSON = new ObjectMapper();

    record Reply(int code, JsonNode body, java.util.List<String> warnings) {}
    @RegisterExtension
    static final ManagerHarness harness = ManagerHarness.withE2eQueues();

    @Test
    void writtenWithCohortNameReadsAsCohortThroughV1beta1() throws Exception {
        assertThat(send("POST", V2, queue("kueue.x-k8s.io/v1beta2", "written-v2", "cohortName")).code()).isEqualTo(201);

        JsonNode read = send("GET", V1 + "/written-v2", null).body();
        assertThat(read.path("apiVersion").asText()).isEqualTo("kueue.x-k8s.io/v1beta1");
        assertThat(read.at("/spec/cohort").asText()).isEqualTo("research");
        assertThat(read.at("/spec").has("cohortName")).isFalse();

        JsonNode list = send("GET", V1, null).body();
        assertThat(list.path("apiVersion").asText()).isEqualTo("kueue.x-k8s.io/v1beta1");
        JsonNode item = itemNamed(list, "written-v2");
        assertThat(item.path("apiVersion").asText()).isEqualTo("kueue.x-k8s.io/v1beta1");
        assertThat(item.at("/spec/cohort").asText()).isEqualTo("research");
        assertThat(item.at("/spec").has("cohortName")).isFalse();

        JsonNode status = send("GET", V1 + "/written-v2/status", null).body();
        assertThat(status.at("/spec/cohort").asText()).isEqualTo("research");
    }

    @Test
    void aV1beta1TableShowsTheCohort() throws Exception {
        send("POST", V2, queue("kueue.x-k8s.io/v1beta2", "tabled", "cohortName"));

        HttpResponse<String> table = harness.client().exchange("GET", V1 + "/tabled",
                Map.of("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io"), HttpRequest.BodyPublishers.noBody());

        JsonNode body = JSON.readTree(table.body());
        assertThat(body.path("kind").asText()).isEqualTo("Table");
        assertThat(body.at("/columnDefinitions/1/name").asText()).isEqualTo("Cohort");
        assertThat(body.at("/rows/0/cells/1").asText()).isEqualTo("research");
    }

    @Test
    void writtenWithCohortThroughV1beta1ReadsAsCohortNameThroughV1beta2() throws Exception {
        Reply created = send("POST", V1, queue("kueue.x-k8s.io/v1beta1", "written-v1", "cohort"));
        assertThat(created.code()).as(created.body().toString()).isEqualTo(201);
        assertThat(created.body().path("apiVersion").asText()).isEqualTo("kueue.x-k8s.io/v1beta1");
        assertThat(created.body().at("/spec/cohort").asText()).isEqualTo("research");
        assertThat(created.warnings()).anyMatch(w -> w.contains("v1beta1 ClusterQueue is deprecated"));

        JsonNode read = send("GET", V2 + "/written-v1", null).body();
        assertThat(read.at("/spec/cohortName").asText()).isEqualTo("research");
        assertThat(read.at("/spec").has("cohort")).isFalse();
    }

    @Test
    void aMergePatchThroughV1beta1ChangesTheCohort() throws Exception {
        send("POST", V2, queue("kueue.x-k8s.io/v1beta2", "patched", "cohortName"));

        Reply patched = send("PATCH", V1 + "/patched", "{\"spec\":{\"cohort\":\"elsewhere\"}}", "application/merge-patch+json");

        assertThat(patched.code()).as(patched.body().toString()).isEqualTo(200);
        assertThat(patched.body().at("/spec/cohort").asText()).isEqualTo("elsewhere");
        JsonNode stored = send("GET", V2 + "/patched", null).body();
        assertThat(stored.at("/spec/cohortName").asText()).isEqualTo("elsewhere");
        assertThat(stored.at("/spec").has("cohort")).isFalse();
    }

    @Test
    void aMultiKueueClusterWrittenThroughV1beta1KeepsItsKubeConfig() throws Exception {
        Reply created = send("POST", "/apis/kueue.x-k8s.io/v1beta1/multikueueclusters", """
                {"apiVersion":"kueue.x-k8s.io/v1beta1","kind":"MultiKueueCluster","metadata":{"name":"worker-v1"},
                 "spec":{"kubeConfig":{"location":"worker-v1-secret","locationType":"Secret"}}}""");
        assertThat(created.code()).as(created.body().toString()).isEqualTo(201);
        assertThat(created.body().at("/spec/kubeConfig/location").asText()).isEqualTo("worker-v1-secret");

        JsonNode stored = send("GET", "/apis/kueue.x-k8s.io/v1beta2/multikueueclusters/worker-v1", null).body();
        assertThat(stored.at("/spec/clusterSource/kubeConfig/location").asText()).isEqualTo("worker-v1-secret");
        assertThat(stored.at("/spec").has("kubeConfig")).isFalse();
        send("DELETE", "/apis/kueue.x-k8s.io/v1beta2/multikueueclusters/worker-v1", null);
    }

    @Test
    void aWorkloadsPriorityReadsAsClassNameAndSourceThroughV1beta1() throws Exception {
        String workloads = "/apis/kueue.x-k8s.io/%s/namespaces/team-a/workloads";
        Reply created = send("POST", workloads.formatted("v1beta2"), """
                {"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"Workload","metadata":{"name":"prioritised"},
                 "spec":{"queueName":"team-a-queue",
                         "priorityClassRef":{"group":"kueue.x-k8s.io","kind":"WorkloadPriorityClass","name":"production"},
                         "podSets":[{"name":"main","count":1,"template":{"spec":{"containers":[{"name":"c","image":"busybox",
                                     "resources":{"requests":{"cpu":"1"}}}]}}}]}}""");
        assertThat(created.code()).as(created.body().toString()).isEqualTo(201);

        JsonNode read = send("GET", workloads.formatted("v1beta1") + "/prioritised", null).body();

        assertThat(read.at("/spec/priorityClassName").asText()).isEqualTo("production");
        assertThat(read.at("/spec/priorityClassSource").asText()).isEqualTo("kueue.x-k8s.io/workloadpriorityclass");
        assertThat(read.at("/spec").has("priorityClassRef")).isFalse();
        send("DELETE", workloads.formatted("v1beta2") + "/prioritised", null);
    }

    @Test
    void aWatchThroughV1beta1SendsTheV1beta1Shape() throws Exception {
        HttpResponse<Stream<String>> watch = harness.client().sendRaw("GET", V1 + "?watch=true", HttpRequest.BodyPublishers.noBody(),
                request -> { }, HttpResponse.BodyHandlers.ofLines());
        assertThat(watch.statusCode()).isEqualTo(200);
        CompletableFuture<JsonNode> event = CompletableFuture.supplyAsync(() -> watch.body()
                .map(V1beta1ReadShapeHttpTest::parse)
                .filter(e -> e.at("/object/metadata/name").asText().equals("watched"))
                .findFirst().orElseThrow());
        try {
            assertThat(send("POST", V2, queue("kueue.x-k8s.io/v1beta2", "watched", "cohortName")).code()).isEqualTo(201);

            JsonNode object = event.get(20, TimeUnit.SECONDS).get("object");
            assertThat(object.path("apiVersion").asText()).isEqualTo("kueue.x-k8s.io/v1beta1");
            assertThat(object.at("/spec/cohort").asText()).isEqualTo("research");
            assertThat(object.at("/spec").has("cohortName")).isFalse();
        } finally {
            event.cancel(true);
            watch.body().close();
        }
    }

    private static String queue(String apiVersion, String name, String cohortField) {
        return "{\"apiVersion\":\"" + apiVersion + "\",\"kind\":\"ClusterQueue\",\"metadata\":{\"name\":\"" + name + "\"},"
                + "\"spec\":{\"" + cohortField + "\":\"research\",\"namespaceSelector\":{}}}";
    }

    private static JsonNode itemNamed(JsonNode list, String name) {
        for (JsonNode item : list.path("items")) {
            if (item.at("/metadata/name").asText().equals(name)) return item;
        }
        throw new AssertionError("no item " + name + " in " + list);
    }

    private static JsonNode parse(String line) {
        try {
            return JSON.readTree(line);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Reply send(String method, String path, String body) throws Exception {
        return send(method, path, body, "application/json");
    }

    private static Reply send(String method, String path, String body, String contentType) throws Exception {
        HttpResponse<String> response = harness.client().send(method, path, contentType, body);
        return new Reply(response.statusCode(), JSON.readTree(response.body()), response.headers().allValues("Warning"));
    }
}
