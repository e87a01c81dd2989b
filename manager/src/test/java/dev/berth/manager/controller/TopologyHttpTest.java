package dev.berth.manager.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.manager.testing.ManagerHarness;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Kueue's Topology kind and the pod-set topology requests over real HTTP (issue 18): served at v1beta2
 * and v1beta1 with discovery and OpenAPI, refused with a 422 naming the field where Kueue's CRD or
 * webhooks refuse (nothing stored), and a job's topology annotation carried into its Workload.
 */
class TopologyHttpTest {
    private static final String V1BETA2 = "/apis/kueue.x-k8s.io/v1beta2";
    private static final String TOPOLOGIES = V1BETA2 + "/topologies";
    private static final String FLAVORS = V1BETA2 + "/resourceflavors";
    private static final String JOBS = "/apis/batch/v1/namespaces/team-a/jobs";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String BLOCK = "cloud.provider.com/topology-block";
    private static final String RACK = "cloud.provider.com/topology-rack";

    @RegisterExtension
    final ManagerHarness harness = ManagerHarness.withE2eQueues();

    private HttpResponse<String> send(String method, String path, String json) {
        return harness.client().send(method, path, method.equals("PATCH") ? "application/merge-patch+json" : "application/json", json);
    }

    private static String topology(String name, String... labels) {
        StringBuilder levels = new StringBuilder();
        for (String label : labels) levels.append(levels.length() == 0 ? "" : ",").append("{\"nodeLabel\":\"").append(label).append("\"}");
        return "{\"apiVersion\":\"kueue.x-k8s.io/v1beta2\",\"kind\":\"Topology\",\"metadata\":{\"name\":\"" + name + "\"},"
                + "\"spec\":{\"levels\":[" + levels + "]}}";
    }

    private void assertRefused(HttpResponse<String> response, String field, String message) throws Exception {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(422);
        JsonNode status = JSON.readTree(response.body());
        assertThat(status.path("kind").asText()).isEqualTo("Status");
        assertThat(status.path("details").path("causes").findValuesAsText("field")).contains(field);
        assertThat(status.path("message").asText()).contains(message);
    }

    @Test
    void aTopologyIsServedAtBothVersionsAndInDiscoveryAndOpenApi() throws Exception {
        assertThat(send("POST", TOPOLOGIES, topology("default", BLOCK, RACK, "kubernetes.io/hostname")).statusCode()).isEqualTo(201);

        assertThat(harness.client().get(TOPOLOGIES + "/default").path("spec").path("levels").path(1).path("nodeLabel").asText()).isEqualTo(RACK);
        assertThat(harness.client().get("/apis/kueue.x-k8s.io/v1beta1/topologies/default").path("apiVersion").asText())
                .isEqualTo("kueue.x-k8s.io/v1beta1");
        JsonNode resources = harness.client().get(V1BETA2).path("resources");
        JsonNode served = null;
        for (JsonNode resource : resources) if (resource.path("name").asText().equals("topologies")) served = resource;
        assertThat(served).isNotNull();
        assertThat(served.path("kind").asText()).isEqualTo("Topology");
        assertThat(served.path("namespaced").asBoolean(true)).isFalse();
        assertThat(served.path("shortNames").toString()).contains("topo");
        assertThat(harness.client().get("/openapi/v3/apis/kueue.x-k8s.io/v1beta2").path("components").path("schemas").toString())
                .contains("Topology");
    }

    @Test
    void topologiesKueueRefusesAreRefusedNamingTheFieldAndNothingIsStored() throws Exception {
        assertRefused(send("POST", TOPOLOGIES, topology("empty")), "spec.levels", "Required value");
        assertRefused(send("POST", TOPOLOGIES, topology("twice", RACK, RACK)), "spec.levels", "must be unique");
        assertRefused(send("POST", TOPOLOGIES, topology("host-first", "kubernetes.io/hostname", RACK)), "spec.levels",
                "the kubernetes.io/hostname label can only be used at the lowest level of topology");
        assertRefused(send("POST", TOPOLOGIES, topology("bad-label", "not a label")), "spec.levels[0].nodeLabel", "Invalid value");
        String[] seventeen = new String[17];
        for (int i = 0; i < 17; i++) seventeen[i] = "example.com/level-" + i;
        assertRefused(send("POST", TOPOLOGIES, topology("deep", seventeen)), "spec.levels", "must have at most 16 items");

        for (String name : new String[] {"empty", "twice", "host-first", "bad-label", "deep"}) {
            assertThat(send("GET", TOPOLOGIES + "/" + name, null).statusCode()).isEqualTo(404);
        }
    }

    @Test
    void levelsChangeOnlyWhileHostnameIsTheLowestLevel() throws Exception {
        assertThat(send("POST", TOPOLOGIES, topology("racks", BLOCK, RACK)).statusCode()).isEqualTo(201);
        assertRefused(send("PUT", TOPOLOGIES + "/racks", topology("racks", RACK)), "spec.levels", "levels are mutable only when");

        assertThat(send("POST", TOPOLOGIES, topology("hosts", BLOCK, RACK, "kubernetes.io/hostname")).statusCode()).isEqualTo(201);
        assertThat(send("PUT", TOPOLOGIES + "/hosts", topology("hosts", RACK, "kubernetes.io/hostname")).statusCode()).isEqualTo(200);
        assertThat(harness.client().get(TOPOLOGIES + "/racks").path("spec").path("levels").size()).isEqualTo(2);
    }

    @Test
    void aFlavorNamesATopologyOnlyWithNodeLabelsAndKeepsIt() throws Exception {
        String noLabels = "{\"apiVersion\":\"kueue.x-k8s.io/v1beta2\",\"kind\":\"ResourceFlavor\",\"metadata\":{\"name\":\"tas\"},"
                + "\"spec\":{\"topologyName\":\"default\"}}";
        assertRefused(send("POST", FLAVORS, noLabels), "spec", "at least one nodeLabel is required when topology is set");
        assertThat(send("GET", FLAVORS + "/tas", null).statusCode()).isEqualTo(404);

        String labelled = noLabels.replace("\"spec\":{", "\"spec\":{\"nodeLabels\":{\"pool\":\"h100\"},");
        assertThat(send("POST", FLAVORS, labelled).statusCode()).isEqualTo(201);
        assertRefused(send("PATCH", FLAVORS + "/tas", "{\"spec\":{\"topologyName\":\"other\"}}"), "spec",
                "topologyName is immutable when topologyName is set");
        assertThat(harness.client().get(FLAVORS + "/tas").path("spec").path("topologyName").asText()).isEqualTo("default");
    }

    private static String job(String name, String annotations) {
        return "{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\",\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"team-a\","
                + "\"labels\":{\"kueue.x-k8s.io/queue-name\":\"team-a-queue\"}},\"spec\":{\"parallelism\":4,\"completions\":4,"
                + "\"suspend\":true,\"template\":{\"metadata\":{\"annotations\":{" + annotations + "}},\"spec\":{\"restartPolicy\":\"Never\","
                + "\"containers\":[{\"name\":\"c\",\"image\":\"busybox\",\"resources\":{\"requests\":{\"cpu\":\"1\"}}}]}}}}";
    }

    @Test
    void aJobsTopologyAnnotationsAreCheckedAsKueueDoes() throws Exception {
        assertRefused(send("POST", JOBS, job("two", "\"kueue.x-k8s.io/podset-required-topology\":\"" + RACK + "\","
                + "\"kueue.x-k8s.io/podset-preferred-topology\":\"" + BLOCK + "\"")), "spec.template.metadata.annotations",
                "must not contain more than one topology annotation");
        assertRefused(send("POST", JOBS, job("no-size", "\"kueue.x-k8s.io/podset-slice-required-topology\":\"" + RACK + "\"")),
                "spec.template.metadata.annotations[kueue.x-k8s.io/podset-slice-size]", "must be set when");
        assertRefused(send("POST", JOBS, job("big-slice", "\"kueue.x-k8s.io/podset-required-topology\":\"" + BLOCK + "\","
                + "\"kueue.x-k8s.io/podset-slice-required-topology\":\"" + RACK + "\",\"kueue.x-k8s.io/podset-slice-size\":\"8\"")),
                "spec.template.metadata.annotations[kueue.x-k8s.io/podset-slice-size]", "must not be greater than pod set count 4");
        assertRefused(send("POST", JOBS, job("maybe", "\"kueue.x-k8s.io/podset-unconstrained-topology\":\"maybe\"")),
                "spec.template.metadata.annotations[kueue.x-k8s.io/podset-unconstrained-topology]", "must be a boolean value");
        for (String name : new String[] {"two", "no-size", "big-slice", "maybe"}) {
            assertThat(send("GET", JOBS + "/" + name, null).statusCode()).isEqualTo(404);
        }
    }

    @Test
    void aJobsTopologyAnnotationsBecomeItsWorkloadsTopologyRequest() {
        assertThat(send("POST", JOBS, job("gang", "\"kueue.x-k8s.io/podset-required-topology\":\"" + BLOCK + "\","
                + "\"kueue.x-k8s.io/podset-slice-required-topology\":\"" + RACK + "\",\"kueue.x-k8s.io/podset-slice-size\":\"2\"")).statusCode())
                .isEqualTo(201);

        JsonNode request = await().atMost(Duration.ofSeconds(20)).until(() -> {
            for (JsonNode workload : harness.client().get(V1BETA2 + "/namespaces/team-a/workloads").path("items")) {
                if (workload.path("metadata").path("ownerReferences").path(0).path("name").asText().equals("gang")) {
                    return workload.path("spec").path("podSets").path(0).path("topologyRequest");
                }
            }
            return null;
        }, r -> r != null);
        assertThat(request.path("required").asText()).isEqualTo(BLOCK);
        assertThat(request.path("podSetSliceRequiredTopology").asText()).isEqualTo(RACK);
        assertThat(request.path("podSetSliceSize").asInt()).isEqualTo(2);
    }

    @Test
    void aWorkloadsTopologyRequestIsCheckedAsKueuesWebhookDoes() throws Exception {
        String workload = "{\"apiVersion\":\"kueue.x-k8s.io/v1beta2\",\"kind\":\"Workload\",\"metadata\":{\"name\":\"direct\",\"namespace\":\"team-a\"},"
                + "\"spec\":{\"queueName\":\"team-a-queue\",\"podSets\":[{\"name\":\"main\",\"count\":4,\"topologyRequest\":{\"required\":\"" + RACK
                + "\",\"podSetSliceSize\":2},\"template\":{\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"busybox\"}]}}}]}}";

        assertRefused(send("POST", V1BETA2 + "/namespaces/team-a/workloads", workload), "spec.podSets[0].topologyRequest.podSetSliceSize",
                "may not be set when podSetSliceRequiredTopology is not specified");
        assertThat(send("GET", V1BETA2 + "/namespaces/team-a/workloads/direct", null).statusCode()).isEqualTo(404);
    }
}
