package dev.berth.manager.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.manager.testing.ManagerHarness;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Kueue's handling of a ClusterQueue's references, over real HTTP on loopback: a ClusterQueue applied
 * before its ResourceFlavor or AdmissionCheck is accepted and inactive with Kueue's reason and message
 * (so {@code kubectl apply -f dir/} and GitOps tools work in any order), and becomes active, and admits,
 * once the object appears.
 */
class ClusterQueueReferencesHttpTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String KUEUE = "/apis/kueue.x-k8s.io/v1beta2";

    @RegisterExtension
    final ManagerHarness harness = ManagerHarness.empty().fileStore();

    @BeforeEach
    void start() throws Exception {
        assertThat(send("POST", "/api/v1/namespaces", "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: late\n").statusCode())
                .isEqualTo(201);
    }

    @Test
    void aClusterQueueAppliedBeforeItsFlavorIsInactiveUntilTheFlavorAppearsThenAdmits() throws Exception {
        HttpResponse<String> created = send("POST", KUEUE + "/clusterqueues", clusterQueue("late-cq", "late-flavor", null));
        assertThat(created.statusCode()).isEqualTo(201);
        JsonNode inactive = await().atMost(Duration.ofSeconds(10)).until(() -> active("late-cq"), c -> c != null);
        assertThat(inactive.path("status").asText()).isEqualTo("False");
        assertThat(inactive.path("reason").asText()).isEqualTo("FlavorNotFound");
        assertThat(inactive.path("message").asText())
                .isEqualTo("Can't admit new workloads: references missing ResourceFlavor(s): late-flavor.");

        assertThat(send("POST", KUEUE + "/namespaces/late/localqueues", localQueue("late-cq")).statusCode()).isEqualTo(201);
        assertThat(send("POST", "/apis/batch/v1/namespaces/late/jobs", job()).statusCode()).isEqualTo(201);
        assertThat(send("POST", KUEUE + "/resourceflavors", flavor("late-flavor")).statusCode()).isEqualTo(201);

        await().atMost(Duration.ofSeconds(10)).until(() -> active("late-cq"), c -> c != null && "True".equals(c.path("status").asText()));
        await().atMost(Duration.ofSeconds(10)).until(this::firstWorkloadAdmitted);
    }

    @Test
    void aClusterQueueNamingAMissingAdmissionCheckIsInactiveWithKueuesReason() throws Exception {
        assertThat(send("POST", KUEUE + "/resourceflavors", flavor("late-flavor")).statusCode()).isEqualTo(201);
        assertThat(send("POST", KUEUE + "/clusterqueues", clusterQueue("checked-cq", "late-flavor", "later-check")).statusCode())
                .isEqualTo(201);
        JsonNode inactive = await().atMost(Duration.ofSeconds(10)).until(() -> active("checked-cq"), c -> c != null);
        assertThat(inactive.path("status").asText()).isEqualTo("False");
        assertThat(inactive.path("reason").asText()).isEqualTo("AdmissionCheckNotFound");
        assertThat(inactive.path("message").asText())
                .isEqualTo("Can't admit new workloads: references missing AdmissionCheck(s): later-check.");
    }

    @Test
    void deletingAFlavorOrClusterQueueInUseIsHeldByTheResourceInUseFinalizerUntilFree() throws Exception {
        assertThat(send("POST", KUEUE + "/resourceflavors", flavor("late-flavor")).statusCode()).isEqualTo(201);
        assertThat(send("POST", KUEUE + "/clusterqueues", clusterQueue("late-cq", "late-flavor", null)).statusCode()).isEqualTo(201);
        assertThat(send("POST", KUEUE + "/namespaces/late/localqueues", localQueue("late-cq")).statusCode()).isEqualTo(201);
        assertThat(send("POST", "/apis/batch/v1/namespaces/late/jobs", job()).statusCode()).isEqualTo(201);
        await().atMost(Duration.ofSeconds(10)).until(this::firstWorkloadAdmitted);

        HttpResponse<String> heldFlavor = send("DELETE", KUEUE + "/resourceflavors/late-flavor", null);
        assertThat(heldFlavor.statusCode()).isEqualTo(200);
        assertHeld(JSON.readTree(heldFlavor.body()));
        HttpResponse<String> heldQueue = send("DELETE", KUEUE + "/clusterqueues/late-cq", null);
        assertThat(heldQueue.statusCode()).isEqualTo(200);
        assertHeld(JSON.readTree(heldQueue.body()));

        // Kueue's terminating ClusterQueue: Active=False, reason Terminating; the admitted workload keeps its
        // quota, a new one is not admitted (it waits, inadmissible).
        JsonNode terminating = await().atMost(Duration.ofSeconds(10)).until(() -> active("late-cq"),
                c -> c != null && c.path("reason").asText().equals("Terminating"));
        assertThat(terminating.path("status").asText()).isEqualTo("False");
        assertThat(terminating.path("message").asText()).isEqualTo("Can't admit new workloads; clusterQueue is terminating");
        assertThat(send("POST", "/apis/batch/v1/namespaces/late/jobs", job()).statusCode()).isEqualTo(201);
        await().atMost(Duration.ofSeconds(10)).until(() -> JSON.readTree(send("GET", KUEUE + "/namespaces/late/workloads", null).body())
                .path("items").findValuesAsText("message").stream().anyMatch(m -> m.equals("ClusterQueue late-cq is terminating or missing")));
        assertThat(JSON.readTree(send("GET", KUEUE + "/namespaces/late/workloads", null).body()).path("items"))
                .as("one admitted before the delete, one waiting").hasSize(2);

        // Still there after housekeeping has looked at them: the queue holds a workload and names the flavor.
        await().pollDelay(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(5)).until(() -> true);
        assertHeld(JSON.readTree(send("GET", KUEUE + "/resourceflavors/late-flavor", null).body()));
        assertHeld(JSON.readTree(send("GET", KUEUE + "/clusterqueues/late-cq", null).body()));

        // The workload ends: the queue is free and goes, and with it the last use of the flavor.
        for (JsonNode item : JSON.readTree(send("GET", KUEUE + "/namespaces/late/workloads", null).body()).path("items")) {
            String workload = item.path("metadata").path("name").asText();
            assertThat(send("DELETE", KUEUE + "/namespaces/late/workloads/" + workload, null).statusCode()).isIn(200, 202);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> send("GET", KUEUE + "/clusterqueues/late-cq", null).statusCode() == 404);
        await().atMost(Duration.ofSeconds(10)).until(() -> send("GET", KUEUE + "/resourceflavors/late-flavor", null).statusCode() == 404);
    }

    @Test
    void aFlavorNoClusterQueueNamesIsDeletedAtOnce() throws Exception {
        assertThat(send("POST", KUEUE + "/resourceflavors", flavor("unused")).statusCode()).isEqualTo(201);
        assertThat(send("DELETE", KUEUE + "/resourceflavors/unused", null).statusCode()).isEqualTo(200);
        assertThat(send("GET", KUEUE + "/resourceflavors/unused", null).statusCode()).isEqualTo(404);
    }

    private static void assertHeld(JsonNode object) {
        assertThat(object.path("metadata").path("deletionTimestamp").asText()).isNotEmpty();
        assertThat(object.path("metadata").path("finalizers").toString()).contains("kueue.x-k8s.io/resource-in-use");
    }

    static String clusterQueue(String name, String flavor, String check) {
        return "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata:\n  name: " + name + "\nspec:\n"
                + "  namespaceSelector: {}\n"
                + (check == null ? "" : "  admissionChecksStrategy:\n    admissionChecks:\n    - name: " + check + "\n")
                + "  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n"
                + "    - name: " + flavor + "\n      resources:\n      - name: cpu\n        nominalQuota: 4\n";
    }

    static String flavor(String name) {
        return "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata:\n  name: " + name + "\n";
    }

    static String localQueue(String clusterQueue) {
        return "apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata:\n  name: lq\n  namespace: late\n"
                + "spec:\n  clusterQueue: " + clusterQueue + "\n";
    }

    static String job() {
        return "apiVersion: batch/v1\nkind: Job\nmetadata:\n  generateName: late-job-\n  namespace: late\n  labels:\n"
                + "    kueue.x-k8s.io/queue-name: lq\nspec:\n  suspend: true\n  template:\n    spec:\n      containers:\n"
                + "      - name: main\n        image: busybox\n        resources:\n          requests:\n            cpu: 1\n"
                + "      restartPolicy: Never\n";
    }

    private JsonNode active(String clusterQueue) throws Exception {
        HttpResponse<String> response = send("GET", KUEUE + "/clusterqueues/" + clusterQueue, null);
        if (response.statusCode() != 200) return null;
        for (JsonNode condition : JSON.readTree(response.body()).path("status").path("conditions")) {
            if (condition.path("type").asText().equals("Active")) return condition;
        }
        return null;
    }

    private boolean firstWorkloadAdmitted() throws Exception {
        JsonNode items = JSON.readTree(send("GET", KUEUE + "/namespaces/late/workloads", null).body()).path("items");
        if (items.size() == 0) return false;
        for (JsonNode condition : items.get(0).path("status").path("conditions")) {
            if (condition.path("type").asText().equals("Admitted")) return condition.path("status").asText().equals("True");
        }
        return false;
    }

    HttpResponse<String> send(String method, String path, String yaml) throws Exception {
        return harness.client().send(method, path, yaml == null ? null : "application/yaml", yaml);
    }
}
