package dev.berth.manager.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.store.MemoryObjectStore;
import dev.berth.manager.store.ObjectKey;
import dev.berth.manager.testing.ManagerClient;
import dev.berth.manager.testing.ManagerHarness;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A follower's rehearsal of taking office rebuilds a controller from the store and runs a scheduling pass that
 * would admit a workload, yet writes nothing: the store is untouched, and the workload is admitted only by the
 * next real leader.
 */
class TakeoverRehearsalTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String KUEUE = "/apis/kueue.x-k8s.io/v1beta2";
    private static final Duration WAIT = Duration.ofSeconds(20);

    private final MemoryObjectStore store = new MemoryObjectStore(Clock.systemUTC());
    @RegisterExtension
    final ManagerHarness harness = ManagerHarness.empty().store(store);

    @Test
    void aRehearsalDecidesOverTheStoredStateButWritesNothing() throws Exception {
        apply("/api/v1", "namespaces", null, "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"team-a\"}}");
        apply(KUEUE, "resourceflavors", null, "{\"kind\":\"ResourceFlavor\",\"metadata\":{\"name\":\"a100\"}}");
        apply(KUEUE, "clusterqueues", null, "{\"kind\":\"ClusterQueue\",\"metadata\":{\"name\":\"cq\"},\"spec\":{\"namespaceSelector\":{},"
                + "\"resourceGroups\":[{\"coveredResources\":[\"nvidia.com/gpu\"],\"flavors\":[{\"name\":\"a100\","
                + "\"resources\":[{\"name\":\"nvidia.com/gpu\",\"nominalQuota\":1}]}]}]}}");
        apply(KUEUE, "localqueues", "team-a", "{\"kind\":\"LocalQueue\",\"metadata\":{\"name\":\"lq\"},\"spec\":{\"clusterQueue\":\"cq\"}}");
        submitJob("first");
        submitJob("second");
        await().atMost(WAIT).until(() -> "True".equals(reserved("job-first-"))
                && !"missing".equals(reserved("job-second-")) && !"True".equals(reserved("job-second-")));
        harness.stopManager();
        // room for the second while no manager leads
        ObjectKey cq = new ObjectKey(Resources.CLUSTER_QUEUES.resource(), "", "cq");
        ObjectNode widened = store.get(cq).orElseThrow().object().deepCopy();
        ((ObjectNode) widened.at("/spec/resourceGroups/0/flavors/0/resources/0")).put("nominalQuota", 2);
        store.replace(cq, widened, null);
        long revision = store.revision();

        int recovered = TakeoverRehearsal.rehearse(store, Clock.systemUTC(), SchedulerOptions.DEFAULTS, JobIntegrationSettings.DEFAULTS);

        assertThat(recovered).isEqualTo(2);
        assertThat(store.revision()).as("a rehearsal writes nothing").isEqualTo(revision);
        assertThat(storedReserved("job-second-")).isNotEqualTo("True");
        harness.restart();
        await().atMost(WAIT).until(() -> "True".equals(reserved("job-second-")));
    }

    private void submitJob(String name) throws Exception {
        String job = "{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\",\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"team-a\","
                + "\"labels\":{\"kueue.x-k8s.io/queue-name\":\"lq\"}},\"spec\":{\"parallelism\":1,\"completions\":1,"
                + "\"suspend\":true,\"template\":{\"spec\":{\"restartPolicy\":\"Never\",\"containers\":[{\"name\":\"c\",\"image\":\"x\","
                + "\"resources\":{\"requests\":{\"nvidia.com/gpu\":\"1\"}}}]}}}}";
        assertThat(send("POST", "/apis/batch/v1/namespaces/team-a/jobs", job).statusCode()).isEqualTo(201);
    }

    /** QuotaReserved of the workload whose name starts with prefix (Job workloads are named job-<job>-<hash>). */
    private String reserved(String prefix) throws Exception {
        for (JsonNode workload : JSON.readTree(send("GET", KUEUE + "/namespaces/team-a/workloads", null).body()).path("items")) {
            if (workload.path("metadata").path("name").asText().startsWith(prefix)) return condition(workload);
        }
        return "missing";
    }

    private String storedReserved(String prefix) {
        return store.list(Resources.WORKLOADS.resource(), "team-a").stream().filter(w -> w.key().name().startsWith(prefix))
                .map(w -> condition(w.object())).findFirst().orElseThrow();
    }

    private static String condition(JsonNode object) {
        for (JsonNode condition : object.path("status").path("conditions")) {
            if (condition.path("type").asText().equals("QuotaReserved")) return condition.path("status").asText();
        }
        return null;
    }

    private void apply(String prefix, String plural, String namespace, String body) throws Exception {
        String path = prefix + (namespace == null ? "" : "/namespaces/" + namespace) + "/" + plural;
        String withVersion = body.contains("apiVersion") ? body : "{\"apiVersion\":\"kueue.x-k8s.io/v1beta2\"," + body.substring(1);
        HttpResponse<String> response = send("POST", path, withVersion);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
    }

    private HttpResponse<String> send(String method, String path, String body) {
        return harness.client().send(method, path, ManagerClient.JSON_TYPE, body);
    }
}
