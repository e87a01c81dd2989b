package dev.berth.manager.server;

import static dev.berth.manager.testing.ManagerClient.KUEUE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.dispatch.PlacementOptions;
import dev.berth.manager.store.MemoryObjectStore;
import dev.berth.manager.store.ObjectKey;
import dev.berth.manager.store.ObjectStore;
import dev.berth.manager.store.StoreUnavailableException;
import dev.berth.manager.store.StoredObject;
import dev.berth.manager.testing.DispatchQueues;
import dev.berth.manager.testing.ManagerClient;
import dev.berth.manager.testing.ManagerHarness;
import dev.berth.manager.testing.MockWorkerCluster;
import dev.berth.manager.testing.MockWorkerClusters;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Errors never drop work: when the dispatcher's reconcile of a workload throws (here the store, once
 * unavailable, while the workload is being placed), the workload is retried after a backoff and still
 * dispatched. Before the work queue, the exception dropped it (and every workload after it) until
 * something else happened to touch it. The manager runs over HTTP on loopback with one worker cluster,
 * a fabric8 CRUD mock API server; the fault comes from a real in-memory store that fails one read.
 */
class DispatchRetryTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    private final FailingReads store = new FailingReads(new MemoryObjectStore(Clock.systemUTC()));
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
        worker = workers.start("worker").heartbeat(8).beatEvery(Duration.ofSeconds(2));
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

    /** The in-memory store, whose next read of one object fails as an unavailable database would: the fault injector. */
    private static final class FailingReads implements ObjectStore {
        private final ObjectStore store;
        private volatile ObjectKey failNext;
        final AtomicInteger failures = new AtomicInteger();

        FailingReads(ObjectStore store) {
            this.store = store;
        }

        void failNextGetOf(ObjectKey key) {
            failNext = key;
        }

        @Override
        public Optional<StoredObject> get(ObjectKey key) {
            if (key.equals(failNext)) {
                failNext = null;
                failures.incrementAndGet();
                throw new StoreUnavailableException("injected: store unavailable", null);
            }
            return store.get(key);
        }

        @Override
        public List<StoredObject> list(String resource, String namespaceOrNull) {
            return store.list(resource, namespaceOrNull);
        }

        @Override
        public StoredObject create(ObjectKey key, ObjectNode object) {
            return store.create(key, object);
        }

        @Override
        public StoredObject replace(ObjectKey key, ObjectNode object, String expectedResourceVersionOrNull) {
            return store.replace(key, object, expectedResourceVersionOrNull);
        }

        @Override
        public StoredObject replaceStatus(ObjectKey key, ObjectNode status, String expectedResourceVersionOrNull) {
            return store.replaceStatus(key, status, expectedResourceVersionOrNull);
        }

        @Override
        public StoredObject delete(ObjectKey key) {
            return store.delete(key);
        }

        @Override
        public long revision() {
            return store.revision();
        }

        @Override
        public void close() {
            store.close();
        }
    }
}
