package dev.berth.manager.controller;

import static dev.berth.manager.testing.ManagerClient.condition;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.manager.testing.ManagerHarness;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * AppWrapper on the manager over real HTTP, with the example queues admitting in the manager alone (no
 * MultiKueue check): discovery lists it with its short name, the example is queued with one pod set per
 * declared pod set and unsuspended in {@code spec} once admitted, its table has the CRD's printer columns,
 * a component without declared pod sets gets the inferred ones, and what the AppWrapper webhook refuses
 * is refused with a 422 naming the field, nothing stored.
 */
class AppWrapperHttpTest {
    private static final String APPWRAPPERS = "/apis/workload.codeflare.dev/v1beta2/namespaces/team-a/appwrappers";
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    final ManagerHarness harness = ManagerHarness.withE2eQueues();

    private HttpResponse<String> post(String yaml) {
        return harness.client().send("POST", APPWRAPPERS, "application/yaml", yaml);
    }

    private void created(String yaml) {
        HttpResponse<String> response = post(yaml);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
    }

    private static String example() throws Exception {
        return Files.readString(Path.of("..", "examples", "jobs", "appwrapper.yaml"));
    }

    private JsonNode workloadOwnedBy(String name) {
        for (JsonNode workload : harness.client().get("/apis/kueue.x-k8s.io/v1beta2/namespaces/team-a/workloads").path("items")) {
            JsonNode owner = workload.path("metadata").path("ownerReferences").path(0);
            if (owner.path("kind").asText().equals("AppWrapper") && owner.path("name").asText().equals(name)) return workload;
        }
        return null;
    }

    private static List<String> podSets(JsonNode workload) {
        List<String> podSets = new ArrayList<>();
        for (JsonNode podSet : workload.path("spec").path("podSets")) podSets.add(podSet.path("name").asText() + "=" + podSet.path("count").asInt());
        return podSets;
    }

    @Test
    void discoveryListsAppWrappersWithTheirShortName() {
        JsonNode resources = harness.client().get("/apis/workload.codeflare.dev/v1beta2");

        JsonNode appWrappers = null;
        for (JsonNode resource : resources.path("resources")) if (resource.path("name").asText().equals("appwrappers")) appWrappers = resource;
        assertThat(appWrappers).isNotNull();
        assertThat(appWrappers.path("kind").asText()).isEqualTo("AppWrapper");
        assertThat(appWrappers.path("namespaced").asBoolean()).isTrue();
        assertThat(appWrappers.path("shortNames").toString()).contains("aw");
    }

    @Test
    void theExampleIsQueuedPerDeclaredPodSetAndUnsuspendedOnceAdmitted() throws Exception {
        created(example());

        JsonNode workload = await().atMost(Duration.ofSeconds(20)).until(() -> workloadOwnedBy("appwrapper-job"),
                w -> w != null && "True".equals(condition(w, "Admitted")));
        assertThat(podSets(workload)).containsExactly("appwrapper-job-0=2");
        assertThat(workload.path("metadata").path("ownerReferences").path(0).path("apiVersion").asText()).isEqualTo("workload.codeflare.dev/v1beta2");
        await().atMost(Duration.ofSeconds(20)).until(() -> harness.client().get(APPWRAPPERS + "/appwrapper-job").path("spec").path("suspend").asBoolean(true),
                suspended -> !suspended);
        JsonNode stored = harness.client().get(APPWRAPPERS + "/appwrapper-job");
        assertThat(stored.path("spec").has("managedBy")).as("no MultiKueue check: nothing to hand the AppWrapper to").isFalse();
        assertThat(stored.at("/spec/components/0/template/spec/template/spec/containers/0/name").asText())
                .as("the wrapped template is kept whole (preserve-unknown-fields)").isEqualTo("busybox");
    }

    @Test
    void aComponentWithoutPodSetsGetsTheInferredOnes() throws Exception {
        String undeclared = example().replace("  - podSets:\n    - replicas: 2\n      path: template.spec.template\n    template:", "  - template:");

        created(undeclared);

        JsonNode stored = harness.client().get(APPWRAPPERS + "/appwrapper-job");
        assertThat(stored.at("/spec/components/0/podSets").toString()).isEqualTo("[{\"replicas\":2,\"path\":\"template.spec.template\"}]");
        JsonNode workload = await().atMost(Duration.ofSeconds(20)).until(() -> workloadOwnedBy("appwrapper-job"), w -> w != null);
        assertThat(podSets(workload)).containsExactly("appwrapper-job-0=2");
    }

    @Test
    void theTableHasTheCrdsPrinterColumns() throws Exception {
        created(example());
        harness.client().send("PATCH", APPWRAPPERS + "/appwrapper-job/status", "application/merge-patch+json", """
                {"status": {"phase": "Running", "conditions": [
                  {"type": "QuotaReserved", "status": "True", "reason": "r", "message": "", "lastTransitionTime": "2026-01-01T00:00:00Z"},
                  {"type": "ResourcesDeployed", "status": "True", "reason": "r", "message": "", "lastTransitionTime": "2026-01-01T00:00:00Z"},
                  {"type": "Unhealthy", "status": "False", "reason": "r", "message": "", "lastTransitionTime": "2026-01-01T00:00:00Z"}]}}""");

        HttpResponse<String> table = harness.client().exchange("GET", APPWRAPPERS,
                Map.of("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io"), HttpRequest.BodyPublishers.noBody());

        JsonNode body = JSON.readTree(table.body());
        assertThat(body.path("kind").asText()).isEqualTo("Table");
        assertThat(body.path("columnDefinitions").findValuesAsText("name"))
                .containsExactly("Name", "Status", "Quota Reserved", "Resources Deployed", "Unhealthy", "Age");
        assertThat(body.at("/rows/0/cells/0").asText()).isEqualTo("appwrapper-job");
        assertThat(body.at("/rows/0/cells/1").asText()).isEqualTo("Running");
        assertThat(body.at("/rows/0/cells/2").asText()).isEqualTo("True");
        assertThat(body.at("/rows/0/cells/4").asText()).isEqualTo("False");
    }

    @Test
    void aPathThatLeadsNowhereIsRefusedNamingTheFieldAndNothingIsStored() throws Exception {
        String broken = example().replace("path: template.spec.template", "path: template.spec.podTemplate");

        HttpResponse<String> refused = post(broken);

        assertThat(refused.statusCode()).isEqualTo(422);
        JsonNode status = JSON.readTree(refused.body());
        assertThat(status.path("kind").asText()).isEqualTo("Status");
        assertThat(status.path("message").asText()).contains("spec.components[0].podSets");
        assertThat(status.path("details").path("causes").findValuesAsText("field")).contains("spec.components[0].podSets");
        assertThat(harness.client().send("GET", APPWRAPPERS + "/appwrapper-job", null, null).statusCode()).isEqualTo(404);
        assertThat(workloadOwnedBy("appwrapper-job")).isNull();
    }

    @Test
    void anAppWrapperWithoutComponentsIsRefusedNamingTheField() throws Exception {
        HttpResponse<String> refused = post("""
                apiVersion: workload.codeflare.dev/v1beta2
                kind: AppWrapper
                metadata: {name: empty, namespace: team-a, labels: {kueue.x-k8s.io/queue-name: team-a-queue}}
                spec: {components: []}
                """);

        assertThat(refused.statusCode()).isEqualTo(422);
        assertThat(refused.body()).contains("spec.components");
        assertThat(harness.client().send("GET", APPWRAPPERS + "/empty", null, null).statusCode()).isEqualTo(404);
    }
}
