package dev.berth.manager.controller;

import static dev.berth.manager.testing.KueueObjects.clusterQueue;
import static dev.berth.manager.testing.KueueObjects.job;
import static dev.berth.manager.testing.KueueObjects.localQueue;
import static dev.berth.manager.testing.KueueObjects.namespace;
import static dev.berth.manager.testing.KueueObjects.resourceFlavor;
import static dev.berth.manager.testing.ManagerClient.condition;
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
        ManagerClient client = harness.client();
        client.create(namespace("team-a"));
        client.create(resourceFlavor("a100"));
        client.create(clusterQueue("cq").quota("a100", "nvidia.com/gpu", 1));
        client.create(localQueue("team-a", "lq").clusterQueue("cq"));
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

    private void submitJob(String name) {
        harness.client().create(job("team-a", name).queue("lq").request("nvidia.com/gpu", "1"));
    }

    /** QuotaReserved of the workload whose name starts with prefix (Job workloads are named job-<job>-<hash>). */
    private String reserved(String prefix) throws Exception {
        for (JsonNode workload : JSON.readTree(send("GET", KUEUE + "/namespaces/team-a/workloads", null).body()).path("items")) {
            if (workload.path("metadata").path("name").asText().startsWith(prefix)) return condition(workload, "QuotaReserved");
        }
        return "missing";
    }

    private String storedReserved(String prefix) {
        return store.list(Resources.WORKLOADS.resource(), "team-a").stream().filter(w -> w.key().name().startsWith(prefix))
                .map(w -> condition(w.object(), "QuotaReserved")).findFirst().orElseThrow();
    }

    private HttpResponse<String> send(String method, String path, String body) {
        return harness.client().send(method, path, ManagerClient.JSON_TYPE, body);
    }
}
