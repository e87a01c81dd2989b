package dev.berth.manager.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The semantics every {@link ObjectStore} shares; each implementation runs it through a subclass. */
abstract class ObjectStoreContract {
    static final ObjectMapper JSON = new ObjectMapper();
    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-02T03:04:05.678Z"), ZoneOffset.UTC);
    static final String QUEUES = "kueue.x-k8s.io/clusterqueues";
    static final String LOCAL = "kueue.x-k8s.io/localqueues";

    ObjectStore store;

    abstract ObjectStore newStore();

    @BeforeEach
    void open() {
        store = newStore();
    }

    @AfterEach
    void closeStore() {
        // null when newStore() was skipped (no PostgreSQL outside CI): the skip must not turn into an error here
        if (store != null) store.close();
    }

    static ObjectNode object(String json) {
        try {
            return (ObjectNode) JSON.readTree(json.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    static ObjectNode queue(String name, int cpu) {
        return object("{'kind':'ClusterQueue','metadata':{'name':'" + name + "'},'spec':{'cpu':" + cpu + "}}");
    }

    static ObjectKey key(String name) {
        return ObjectKey.of(QUEUES, "", name);
    }

    @Test
    void createStampsServerOwnedMetadata() {
        StoredObject stored = store.create(key("a"), queue("a", 1));

        ObjectNode metadata = (ObjectNode) stored.object().get("metadata");
        assertThat(metadata.get("uid").asText()).hasSize(36);
        assertThat(metadata.get("resourceVersion").asText()).isEqualTo("1");
        assertThat(metadata.get("creationTimestamp").asText()).isEqualTo("2026-01-02T03:04:05Z");
        assertThat(metadata.get("generation").asLong()).isEqualTo(1);
        assertThat(stored.resourceVersion()).isEqualTo(1);
        assertThat(store.revision()).isEqualTo(1);
        assertThat(store.get(key("a"))).contains(stored);
    }

    @Test
    void createTwiceIsAlreadyExistsAndWritesNothing() {
        store.create(key("a"), queue("a", 1));
        assertThatThrownBy(() -> store.create(key("a"), queue("a", 2))).isInstanceOf(AlreadyExistsException.class);
        assertThat(store.revision()).isEqualTo(1);
        assertThat(store.get(key("a")).orElseThrow().object().at("/spec/cpu").asInt()).isEqualTo(1);
    }

    @Test
    void everyWriteTakesTheNextRevision() {
        long a = store.create(key("a"), queue("a", 1)).resourceVersion();
        long b = store.create(key("b"), queue("b", 1)).resourceVersion();
        long c = store.replace(key("a"), queue("a", 2), null).resourceVersion();
        long d = store.replaceStatus(key("a"), object("{'ok':true}"), null).resourceVersion();
        store.delete(key("b"));
        assertThat(List.of(a, b, c, d)).containsExactly(1L, 2L, 3L, 4L);
        assertThat(store.revision()).isEqualTo(5);
    }

    @Test
    void listIsSortedByNamespaceThenNameAndFiltersByNamespace() {
        for (String[] k : new String[][] {{"ns2", "a"}, {"ns1", "b"}, {"ns1", "a"}}) {
            store.create(ObjectKey.of(LOCAL, k[0], k[1]), object("{'metadata':{'name':'" + k[1] + "'}}"));
        }
        store.create(key("other"), queue("other", 1));

        assertThat(store.list(LOCAL, null)).extracting(StoredObject::key).containsExactly(
                ObjectKey.of(LOCAL, "ns1", "a"), ObjectKey.of(LOCAL, "ns1", "b"), ObjectKey.of(LOCAL, "ns2", "a"));
        assertThat(store.list(LOCAL, "ns1")).extracting(s -> s.key().name()).containsExactly("a", "b");
        assertThat(store.list(LOCAL, "ns3")).isEmpty();
        assertThat(store.list("batch/jobs", null)).isEmpty();
    }

    @Test
    void replaceKeepsIdentityAndStatusAndBumpsGenerationOnlyOnSpecChange() {
        StoredObject created = store.create(key("a"), queue("a", 1));
        store.replaceStatus(key("a"), object("{'pending':3}"), null);

        ObjectNode labelled = queue("a", 1);
        ((ObjectNode) labelled.get("metadata")).putObject("labels").put("team", "x");
        labelled.putObject("status").put("pending", 99);
        ObjectNode sameSpec = store.replace(key("a"), labelled, null).object();
        assertThat(sameSpec.at("/metadata/generation").asLong()).isEqualTo(1);
        assertThat(sameSpec.at("/metadata/labels/team").asText()).isEqualTo("x");
        assertThat(sameSpec.at("/status/pending").asInt()).isEqualTo(3);
        assertThat(sameSpec.at("/metadata/uid")).isEqualTo(created.object().at("/metadata/uid"));
        assertThat(sameSpec.at("/metadata/creationTimestamp")).isEqualTo(created.object().at("/metadata/creationTimestamp"));

        ObjectNode newSpec = store.replace(key("a"), queue("a", 2), null).object();
        assertThat(newSpec.at("/metadata/generation").asLong()).isEqualTo(2);
        assertThat(newSpec.at("/metadata/resourceVersion").asText()).isEqualTo("4");
    }

    @Test
    void specLessKindsBumpGenerationOnTopLevelChanges() {
        store.create(key("pc"), object("{'kind':'PriorityClass','metadata':{'name':'pc'},'value':1}"));
        ObjectNode same = store.replace(key("pc"), object("{'kind':'PriorityClass','metadata':{'name':'pc','labels':{'a':'b'}},'value':1}"), null).object();
        ObjectNode changed = store.replace(key("pc"), object("{'kind':'PriorityClass','metadata':{'name':'pc'},'value':2}"), null).object();
        assertThat(same.at("/metadata/generation").asLong()).isEqualTo(1);
        assertThat(changed.at("/metadata/generation").asLong()).isEqualTo(2);
    }

    @Test
    void staleResourceVersionIsConflictAndWritesNothing() {
        store.create(key("a"), queue("a", 1));
        store.replace(key("a"), queue("a", 2), "1");

        assertThatThrownBy(() -> store.replace(key("a"), queue("a", 3), "1")).isInstanceOf(ConflictException.class);
        assertThatThrownBy(() -> store.replaceStatus(key("a"), object("{}"), "1")).isInstanceOf(ConflictException.class);
        assertThat(store.revision()).isEqualTo(2);
        assertThat(store.get(key("a")).orElseThrow().object().at("/spec/cpu").asInt()).isEqualTo(2);
    }

    @Test
    void replaceStatusChangesOnlyTheStatus() {
        store.create(key("a"), queue("a", 1));
        ObjectNode updated = store.replaceStatus(key("a"), object("{'admitted':1}"), "1").object();
        assertThat(updated.at("/status/admitted").asInt()).isEqualTo(1);
        assertThat(updated.at("/spec/cpu").asInt()).isEqualTo(1);
        assertThat(updated.at("/metadata/generation").asLong()).isEqualTo(1);
        assertThat(updated.at("/metadata/resourceVersion").asText()).isEqualTo("2");
    }

    @Test
    void missingObjectsAreNotFound() {
        assertThat(store.get(key("x"))).isEmpty();
        assertThatThrownBy(() -> store.replace(key("x"), queue("x", 1), null)).isInstanceOf(NotFoundException.class);
        assertThatThrownBy(() -> store.replaceStatus(key("x"), object("{}"), null)).isInstanceOf(NotFoundException.class);
        assertThatThrownBy(() -> store.delete(key("x"))).isInstanceOf(NotFoundException.class);
        assertThat(store.revision()).isZero();
    }

    @Test
    void deleteReturnsTheObjectAsItWas() {
        StoredObject created = store.create(key("a"), queue("a", 1));
        assertThat(store.delete(key("a"))).isEqualTo(created);
        assertThat(store.get(key("a"))).isEmpty();
        assertThat(store.revision()).isEqualTo(2);
    }

    @Test
    void objectReturnsAnIndependentCopy() {
        StoredObject created = store.create(key("a"), queue("a", 1));
        created.object().put("spec", "changed");
        assertThat(store.get(key("a")).orElseThrow().object().at("/spec/cpu").asInt()).isEqualTo(1);
    }

    @Test
    void concurrentWritersEachGetADistinctRevision() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<StoredObject>> writes = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                String name = "q" + i;
                writes.add(pool.submit(() -> store.create(key(name), queue(name, 1))));
            }
            List<Long> versions = new ArrayList<>();
            for (Future<StoredObject> write : writes) versions.add(write.get().resourceVersion());
            assertThat(versions).doesNotHaveDuplicates().hasSize(40);
            assertThat(store.revision()).isEqualTo(40);
            assertThat(store.list(QUEUES, null)).hasSize(40);
        } finally {
            pool.shutdownNow();
        }
    }
}
