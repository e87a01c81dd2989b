package dev.berth.manager.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.dispatch.PlacementOptions;
import dev.berth.manager.store.MemoryObjectStore;
import dev.berth.manager.store.ObjectKey;
import dev.berth.manager.store.ObjectStore;
import dev.berth.manager.store.StoredObject;
import dev.berth.manager.testing.DispatchQueues;
import dev.berth.manager.testing.ForwardingStore;
import dev.berth.manager.testing.ManagerClient;
import dev.berth.manager.testing.ManagerHarness;
import dev.berth.manager.testing.MockWorkerClusters;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The dispatcher writes inside journal groups (one sync for a pass's attempt records and check states), and
 * write-ahead dispatch still holds there: a worker receives an attempt's create only once the group that
 * recorded the attempt has synced. The store here is a real in-memory one that notes which attempt records
 * were written inside a group and which groups have ended, and whose group sync is slow (it lasts until
 * the worker received a create of one of the group's attempts, or 300 ms): a create sent before the sync
 * would arrive during it. The worker is a fabric8 CRUD mock API server that looks, when a create arrives,
 * whether the record of that attempt is durable yet.
 */
class DispatchWriteAheadGroupTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    private final GroupNotingStore store = new GroupNotingStore(new MemoryObjectStore(Clock.systemUTC()));
    private final CreatesCheckingRecords worker = store.worker(new CreatesCheckingRecords(store));
    @RegisterExtension
    final ManagerHarness harness = ManagerHarness.empty().store(store)
            .dispatchOptions(new DispatchOptions("test-manager", Duration.ofSeconds(60), Duration.ofMillis(100), PlacementOptions.DEFAULTS));
    @RegisterExtension
    final MockWorkerClusters workers = new MockWorkerClusters();

    @Test
    void aCreateLeavesOnlyAfterTheGroupThatRecordedItsAttemptSynced() {
        ManagerClient client = harness.client();
        workers.start("worker", worker).heartbeat(8).beatEvery(Duration.ofSeconds(2));
        DispatchQueues.to("worker").createIn(client);
        workers.get("worker").connect(client);
        for (int i = 0; i < 4; i++) client.create(DispatchQueues.job("train-" + i, 1, 1));

        await().atMost(WAIT).until(() -> worker.received.size() == 4);
        assertThat(worker.received).as("attempts whose create reached the worker").hasSize(4);
        assertThat(worker.aheadOfTheirRecord).as("creates that arrived before their attempt's record was durable").isEmpty();
        assertThat(store.recordedInGroup).as("attempt records written inside a journal group").containsAll(worker.received);
    }

    /** Notes the attempt ids written into status.dispatch, and which of them a finished group (or a lone write) made durable. */
    static final class GroupNotingStore extends ForwardingStore {
        private int depth;
        private final List<String> pending = new ArrayList<>();
        final Set<String> durable = ConcurrentHashMap.newKeySet();
        final Set<String> recordedInGroup = ConcurrentHashMap.newKeySet();
        private CreatesCheckingRecords worker;

        GroupNotingStore(ObjectStore store) {
            super(store);
        }

        CreatesCheckingRecords worker(CreatesCheckingRecords worker) {
            this.worker = worker;
            return worker;
        }

        @Override
        public synchronized <T> T inOneSync(Supplier<T> work) {
            depth++;
            try {
                return store.inOneSync(work);
            } finally {
                if (--depth == 0) {
                    if (!pending.isEmpty() && worker != null) worker.awaitAnyOf(pending, 300); // the slow disk
                    durable.addAll(pending);
                    pending.clear();
                }
            }
        }

        @Override
        public synchronized StoredObject replaceStatus(ObjectKey key, ObjectNode status, String expectedResourceVersionOrNull) {
            StoredObject written = store.replaceStatus(key, status, expectedResourceVersionOrNull);
            String attempt = status.path("dispatch").path("attemptId").asText("");
            if (!attempt.isEmpty()) {
                if (depth > 0) {
                    pending.add(attempt);
                    recordedInGroup.add(attempt);
                } else {
                    durable.add(attempt);
                }
            }
            return written;
        }







    }

    /** The worker's CRUD API server, checking on every RemoteWorkload create that its attempt's record is durable. */
    static final class CreatesCheckingRecords extends KubernetesCrudDispatcher {
        private static final ObjectMapper JSON = new ObjectMapper();
        private final GroupNotingStore store;
        final List<String> received = new CopyOnWriteArrayList<>();
        final List<String> aheadOfTheirRecord = new CopyOnWriteArrayList<>();

        CreatesCheckingRecords(GroupNotingStore store) {
            this.store = store;
        }

        @Override
        public MockResponse dispatch(RecordedRequest request) {
            if ("POST".equals(request.getMethod()) && request.getPath().contains("/remoteworkloads")) {
                try {
                    String attempt = JSON.readTree(new String(request.getBody().getBytes(), StandardCharsets.UTF_8))
                            .path("spec").path("attemptId").asText();
                    if (!store.durable.contains(attempt)) aheadOfTheirRecord.add(attempt);
                    synchronized (this) {
                        received.add(attempt);
                        notifyAll();
                    }
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
            return super.dispatch(request);
        }

        /** Returns once a create of one of these attempts arrived, or after the bound. */
        synchronized void awaitAnyOf(List<String> attempts, long boundMillis) {
            long until = System.currentTimeMillis() + boundMillis;
            try {
                for (long left = boundMillis; left > 0 && attempts.stream().noneMatch(received::contains); left = until - System.currentTimeMillis()) {
                    wait(left);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
