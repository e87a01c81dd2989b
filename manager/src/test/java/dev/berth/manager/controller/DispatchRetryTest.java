package dev.berth.manager.controller;

import static dev.berth.manager.testing.ManagerClient.KUEUE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.dispatch.PlacementOptions;
import dev.berth.manager.store.MemoryObjectStore;
import dev.berth.manager.store.ObjectKey;
import dev.berth.manager.testing.DispatchQueues;
import dev.berth.manager.testing.FaultInjectingStore;
import dev.berth.manager.testing.ManagerClient;
import dev.berth.manager.testing.ManagerHarness;
import dev.berth.manager.testing.MockWorkerCluster;
import dev.berth.manager.testing.MockWorkerClusters;
import java.time.Clock;
import java.time.Duration;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Errors never drop work: when the dispatcher's reconcile of a workload throws (here the store, once
 * unavailable, while the workload is being placed), the workload is retried after a backoff and still
 * dispatched. Before the work queue, the exception dropped it (and every workload after it) until
 * something else happened to touch it. The manager runs over HTTP on loopback with one worker cluster,
 * a fabric8 CRUD mock API server; the fault comes from a real in-memory store that fails one read or write.
 *
 * <p>And a dispatch is recorded before it is sent (write-ahead): when the record of an attempt cannot be
 * written, no worker ever hears of that attempt. Before, the create went out first; a leader that died
 * between the two left a copy its successor did not know, and the successor ran the workload again
 * (drill 5, "succeeded in 2 attempts").
 */
class DispatchRetryTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    private final FaultInjectingStore store = new FaultInjectingStore(new MemoryObjectStore(Clock.systemUTC()));
    private final RecordedCreates creates = new RecordedCreates();
    @RegisterExtension
    final ManagerHarness harness = ManagerHarness.empty().store(store)
            .dispatchOptions(new DispatchOptions("test-manager", Duration.ofSeconds(60), Duration.ofMillis(100), PlacementOptions.DEFAULTS));
    @RegisterExtension
    final MockWorkerClusters workers = new MockWorkerClusters();
    private ManagerClient client;
    private MockWorkerCluster worker;

    @BeforeEach
    void start() {
        client = harness.client();
        worker = workers.start("worker", creates).heartbeat(8).beatEvery(Duration.ofSeconds(2));
        DispatchQueues.to("worker").createIn(client);
        worker.connect(client);
    }

    @Test
    void aWorkloadWhosePlacementHitAStoreFailureIsRetriedAndStillDispatched() {
        // the MultiKueueConfig is read when a workload is placed: the next such read fails
        store.failNextGetOf(new ObjectKey(Resources.MULTIKUEUE_CONFIGS.resource(), "", "workers"));
        client.create(DispatchQueues.job("train", 1, 1));

        await().atMost(WAIT).until(() -> !worker.attempts().isEmpty());
        assertThat(store.failures.get()).as("the placement did hit the failure").isEqualTo(1);
        JsonNode workload = await().atMost(WAIT).until(() -> client.get(KUEUE + "/namespaces/team-a/workloads").path("items").path(0),
                w -> w.path("status").path("dispatch").path("attemptId").asText().equals(
                        worker.attempts().get(0).getSpec().getAttemptId()));
        assertThat(workload.path("status").path("dispatch").path("cluster").asText()).isEqualTo("worker");
    }

    @Test
    void anAttemptWhoseRecordCannotBeWrittenNeverReachesAWorker() {
        store.failNextStatusWhere(status -> status.path("dispatch").hasNonNull("attemptId"));
        client.create(DispatchQueues.job("train", 1, 1));

        JsonNode workload = await().atMost(WAIT).until(() -> client.get(KUEUE + "/namespaces/team-a/workloads").path("items").path(0),
                w -> !w.path("status").path("dispatch").path("attemptId").asText().isEmpty());
        String refused = store.refusedStatus.path("dispatch").path("attemptId").asText();
        String recorded = workload.path("status").path("dispatch").path("attemptId").asText();
        assertThat(store.failures.get()).as("the first record of a dispatch was refused").isEqualTo(1);
        assertThat(recorded).as("placed again under a new attempt").isNotEqualTo(refused);
        await().atMost(WAIT).until(() -> creates.attemptIds.contains(recorded));
        assertThat(creates.attemptIds).as("creates the worker received").containsExactly(recorded);
    }

    /** The worker's CRUD API server, remembering the attempt id of every RemoteWorkload created on it. */
    private static final class RecordedCreates extends KubernetesCrudDispatcher {
        private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();
        final List<String> attemptIds = new CopyOnWriteArrayList<>();

        @Override
        public MockResponse dispatch(RecordedRequest request) {
            boolean create = "POST".equals(request.getMethod()) && request.getPath().contains("/remoteworkloads");
            String body = create ? new String(request.getBody().getBytes(), java.nio.charset.StandardCharsets.UTF_8) : null;
            MockResponse response = super.dispatch(request);
            if (create) {
                try {
                    attemptIds.add(JSON.readTree(body).path("spec").path("attemptId").asText());
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
            return response;
        }
    }
}
