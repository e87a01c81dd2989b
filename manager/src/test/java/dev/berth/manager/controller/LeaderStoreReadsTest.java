package dev.berth.manager.controller;

import static dev.berth.manager.testing.ManagerClient.KUEUE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.api.ApiServer;
import dev.berth.manager.api.ObjectService;
import dev.berth.manager.security.edge.ApiSecurity;
import dev.berth.manager.store.MemoryObjectStore;
import dev.berth.manager.store.ObjectKey;
import dev.berth.manager.store.ObjectStore;
import dev.berth.manager.store.PostgresObjectStore;
import dev.berth.manager.store.PostgresTestDatabase;
import dev.berth.manager.store.StoredObject;
import dev.berth.manager.testing.ManagerClient;
import dev.berth.manager.testing.ManagerHarness;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import dev.berth.manager.testing.NeedsPostgres;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Plain reads on the leader are served from the store off the state thread only when the store shows only durable
 * writes (PostgreSQL), and then a read never waits for the state thread, never shows what a crash could lose, and
 * shows an acknowledged write to the client that made it (docs/failover.md, "Leader reads off the state thread").
 */
@NeedsPostgres
class LeaderStoreReadsTest {
    private static final String FLAVORS = KUEUE + "/resourceflavors";

    /** Each test starts it over the store it needs. */
    @RegisterExtension
    final ManagerHarness harness = ManagerHarness.empty().startedByTheTest();

    @Test
    void aReadIsAnsweredFromTheStoreWhileTheStateThreadIsBusy() throws Exception {
        ManagerClient client = startOver(PostgresObjectStore.open(PostgresTestDatabase.freshSchema("leader_store_reads"), Clock.systemUTC()));
        client.create(FLAVORS, flavor("a", 0));
        CountDownLatch busy = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Boolean> stateTask = CompletableFuture.supplyAsync(() -> harness.manager().onStateThread(() -> {
            busy.countDown();
            return release.await(30, TimeUnit.SECONDS);
        }));
        try {
            assertThat(busy.await(10, TimeUnit.SECONDS)).isTrue();
            ManagerClient impatient = new ManagerClient(client.baseUrl(), Duration.ofSeconds(2), Duration.ofSeconds(5));
            Optional<HttpResponse<String>> one = impatient.trySend("GET", FLAVORS + "/a", null, null);
            Optional<HttpResponse<String>> list = impatient.trySend("GET", FLAVORS, null, null);
            assertThat(one).hasValueSatisfying(r -> assertThat(r.statusCode()).isEqualTo(200));
            assertThat(list).hasValueSatisfying(r -> assertThat(r.body()).contains("\"name\":\"a\""));
            // a write still waits for the state thread
            CompletableFuture<HttpResponse<String>> write = CompletableFuture.supplyAsync(
                    () -> client.send("POST", FLAVORS, ManagerClient.JSON_TYPE, flavor("b", 0)));
            await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(3)).until(() -> !write.isDone());
            release.countDown();
            assertThat(write.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(201);
        } finally {
            release.countDown();
            stateTask.get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void afterAnAcknowledgedWriteTheSameClientReadsThatVersionOrANewerOne() throws Exception {
        ManagerClient client = startOver(PostgresObjectStore.open(PostgresTestDatabase.freshSchema("leader_store_reads"), Clock.systemUTC()));
        client.create(FLAVORS, flavor("a", 0));
        // another client keeps the state thread writing meanwhile, so reads and grouped writes interleave
        var others = Executors.newSingleThreadExecutor();
        try {
            CompletableFuture<Void> load = CompletableFuture.runAsync(() -> {
                for (int i = 0; i < 40; i++) client.send("POST", FLAVORS, ManagerClient.JSON_TYPE, flavor("other-" + i, i));
            }, others);
            for (int round = 1; round <= 40; round++) {
                JsonNode acknowledged = client.mergePatch(FLAVORS + "/a", "{\"metadata\":{\"labels\":{\"round\":\"" + round + "\"}}}");
                long version = resourceVersion(acknowledged);
                JsonNode read = client.get(FLAVORS + "/a");
                assertThat(resourceVersion(read)).as("round %d", round).isGreaterThanOrEqualTo(version);
                assertThat(read.path("metadata").path("labels").path("round").asText()).isEqualTo(Integer.toString(round));
                List<JsonNode> listed = client.items(FLAVORS);
                JsonNode inList = listed.stream().filter(f -> f.path("metadata").path("name").asText().equals("a")).findFirst().orElseThrow();
                assertThat(resourceVersion(inList)).as("round %d, list", round).isGreaterThanOrEqualTo(version);
            }
            load.get(60, TimeUnit.SECONDS);
        } finally {
            others.shutdown();
        }
    }

    @Test
    void aWriteWhoseSyncIsHeldIsNeverReadBeforeItsGroupIsDurable() throws Exception {
        HeldSyncStore held = new HeldSyncStore("held");
        ManagerClient client = startOver(held);
        CompletableFuture<HttpResponse<String>> create = CompletableFuture.supplyAsync(
                () -> client.send("POST", FLAVORS, ManagerClient.JSON_TYPE, flavor("held", 0)));
        try {
            // the write is in the store's table, visible to any thread that reads the table, and its group waits for its sync
            await().atMost(Duration.ofSeconds(20)).until(() -> held.writtenButNotDurable());
            ManagerClient impatient = new ManagerClient(client.baseUrl(), Duration.ofSeconds(2), Duration.ofMillis(1500));
            Optional<HttpResponse<String>> one = impatient.trySend("GET", FLAVORS + "/held", null, null);
            Optional<HttpResponse<String>> list = impatient.trySend("GET", FLAVORS, null, null);
            assertThat(one.filter(r -> r.statusCode() == 200)).as("GET of a write not yet durable").isEmpty();
            assertThat(list.filter(r -> r.body().contains("\"name\":\"held\""))).as("LIST with a write not yet durable").isEmpty();
            assertThat(create).isNotDone();
        } finally {
            held.release();
        }
        HttpResponse<String> created = create.get(20, TimeUnit.SECONDS);
        assertThat(created.statusCode()).isEqualTo(201);
        JsonNode read = client.get(FLAVORS + "/held");
        assertThat(resourceVersion(read)).isEqualTo(resourceVersion(ManagerClient.json(created)));
    }

    @Test
    void onlyAStoreThatShowsOnlyDurableWritesIsReadOffTheStateThread() {
        assertThat(new MemoryObjectStore().readsShowOnlyDurableWrites()).isFalse();
        HeldSyncStore held = new HeldSyncStore("none");
        ObjectService reads = new ObjectService(held, ManagerResources.registry(ManagerState.readOnly(held)));
        ApiServer api = new ApiServer(reads, Executors.newSingleThreadExecutor(), ApiSecurity.limitsOnly());
        assertThatThrownBy(() -> api.readingFromTheStore(reads, Runnable::run)).isInstanceOf(IllegalArgumentException.class);
    }

    private ManagerClient startOver(ObjectStore store) throws Exception {
        harness.store(store).start();
        return harness.client();
    }

    private static String flavor(String name, int round) {
        return "{\"apiVersion\":\"kueue.x-k8s.io/v1beta2\",\"kind\":\"ResourceFlavor\",\"metadata\":{\"name\":\"" + name
                + "\",\"labels\":{\"round\":\"" + round + "\"}}}";
    }

    private static long resourceVersion(JsonNode object) {
        return Long.parseLong(object.path("metadata").path("resourceVersion").asText());
    }

    /**
     * A store like a group-committing journal without a table lock: a write is in the table, visible to every reader,
     * before its group's sync, and the sync of a group that wrote the named object waits until {@link #release}.
     * It does not claim that reads show only durable writes.
     */
    static final class HeldSyncStore implements ObjectStore {
        private final MemoryObjectStore table = new MemoryObjectStore();
        private final String heldName;
        private final CountDownLatch released = new CountDownLatch(1);
        private final ThreadLocal<int[]> depth = ThreadLocal.withInitial(() -> new int[1]);
        private final ThreadLocal<boolean[]> wroteHeld = ThreadLocal.withInitial(() -> new boolean[1]);
        private volatile boolean waitingForSync;

        HeldSyncStore(String heldName) {
            this.heldName = heldName;
        }

        boolean writtenButNotDurable() {
            return waitingForSync && table.list(Resources.RESOURCE_FLAVORS.resource(), null).stream().anyMatch(o -> o.key().name().equals(heldName));
        }

        void release() {
            released.countDown();
        }

        @Override
        public <T> T inOneSync(Supplier<T> work) {
            depth.get()[0]++;
            try {
                return work.get();
            } finally {
                if (--depth.get()[0] == 0 && wroteHeld.get()[0]) {
                    wroteHeld.get()[0] = false;
                    waitingForSync = true;
                    try {
                        released.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    waitingForSync = false;
                }
            }
        }

        private StoredObject noted(StoredObject written) {
            if (written.key().name().equals(heldName)) wroteHeld.get()[0] = true;
            return written;
        }

        @Override
        public Optional<StoredObject> get(ObjectKey key) {
            return table.get(key);
        }

        @Override
        public List<StoredObject> list(String resource, String namespaceOrNull) {
            return table.list(resource, namespaceOrNull);
        }

        @Override
        public StoredObject create(ObjectKey key, ObjectNode object) {
            return noted(table.create(key, object));
        }

        @Override
        public StoredObject replace(ObjectKey key, ObjectNode object, String expectedResourceVersionOrNull) {
            return noted(table.replace(key, object, expectedResourceVersionOrNull));
        }

        @Override
        public StoredObject replaceStatus(ObjectKey key, ObjectNode status, String expectedResourceVersionOrNull) {
            return noted(table.replaceStatus(key, status, expectedResourceVersionOrNull));
        }

        @Override
        public StoredObject delete(ObjectKey key) {
            return noted(table.delete(key));
        }

        @Override
        public long revision() {
            return table.revision();
        }

        @Override
        public void close() {
            table.close();
        }
    }
}
