package dev.berth.manager.controller;

import static dev.berth.manager.testing.ManagerClient.KUEUE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.manager.dispatch.PlacementOptions;
import dev.berth.manager.store.MemoryObjectStore;
import dev.berth.manager.store.ObjectKey;
import dev.berth.manager.store.StoredObject;
import dev.berth.manager.testing.DispatchQueues;
import dev.berth.manager.testing.ForwardingStore;
import dev.berth.manager.testing.ManagerClient;
import dev.berth.manager.testing.ManagerHarness;
import dev.berth.manager.testing.MockWorkerCluster;
import dev.berth.manager.testing.MockWorkerClusters;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A poll costs what changed: a report the cluster lists again unchanged is not mirrored again (the mirror read the
 * Workload from the store for every listed attempt, every poll), while a changed report, a finished one, and the
 * workload's own changes are still acted on at the next listing. The manager runs over HTTP on loopback with one
 * worker cluster, a fabric8 CRUD mock API server; the store counts reads of the one Workload.
 */
class UnchangedReportMirrorTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    private final WorkloadReads store = new WorkloadReads();
    private final CountedListings listings = new CountedListings();
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
        worker = workers.start("worker", listings).heartbeat(8).beatEvery(Duration.ofSeconds(2));
        DispatchQueues.to("worker").createIn(client);
        worker.connect(client);
    }

    @Test
    void anUnchangedReportIsNotMirroredAgainAndAChangedOneIs() {
        client.create(DispatchQueues.job("train", 1, 1));
        await().atMost(WAIT).until(() -> worker.attempt() != null);
        worker.report(worker.attempt(), "Running", 1, Map.of("active", 1));
        await().atMost(WAIT).until(() -> dispatch().path("phase").asText().equals("Running")
                && dispatch().path("podsRunning").asInt() == 1);

        // a few listings for the admission's own status writes to settle, then count the Workload's reads over five more
        awaitListings(3);
        store.reads.set(0);
        awaitListings(5);
        assertThat(store.reads.get()).as("reads of the Workload while its report stayed the same").isZero();

        worker.report(worker.attempt(), "Running", 2, Map.of("active", 2));
        await().atMost(WAIT).until(() -> dispatch().path("podsRunning").asInt() == 2);

        worker.reportSucceeded(worker.attempt(), 1);
        await().atMost(WAIT).until(() -> workload().path("status").path("conditions").findValues("type").stream()
                .anyMatch(type -> type.asText().equals("Finished")));
    }

    private void awaitListings(int more) {
        int target = listings.count.get() + more;
        await().atMost(WAIT).until(() -> listings.count.get() >= target);
    }

    private JsonNode workload() {
        return client.get(KUEUE + "/namespaces/" + MockWorkerCluster.NAMESPACE + "/workloads").path("items").path(0);
    }

    private JsonNode dispatch() {
        return workload().path("status").path("dispatch");
    }

    /** The manager's store, counting gets of Workloads (there is one) (the test itself reads it only through lists). */
    private static final class WorkloadReads extends ForwardingStore {
        final AtomicInteger reads = new AtomicInteger();

        WorkloadReads() {
            super(new MemoryObjectStore(Clock.systemUTC()));
        }

        @Override
        public Optional<StoredObject> get(ObjectKey key) {
            if (key.resource().equals(Resources.WORKLOADS.resource())) reads.incrementAndGet();
            return super.get(key);
        }
    }

    /** The worker's CRUD API server, counting the manager's listings of RemoteWorkloads. */
    private static final class CountedListings extends KubernetesCrudDispatcher {
        final AtomicInteger count = new AtomicInteger();

        @Override
        public MockResponse dispatch(RecordedRequest request) {
            MockResponse response = super.dispatch(request);
            String path = request.getPath();
            if ("GET".equals(request.getMethod()) && path.contains("/remoteworkloads") && path.contains("labelSelector")) count.incrementAndGet();
            return response;
        }
    }
}
