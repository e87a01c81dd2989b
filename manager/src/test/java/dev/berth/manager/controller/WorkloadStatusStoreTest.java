package dev.berth.manager.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.core.Condition;
import dev.berth.manager.core.WorkloadStatus;
import dev.berth.manager.dispatch.DispatchStatus;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.store.ConflictException;
import dev.berth.manager.store.MemoryObjectStore;
import dev.berth.manager.store.ObjectKey;
import dev.berth.manager.store.ObjectStore;
import dev.berth.manager.store.StoredObject;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * One writer of Workload status: the admission controller's part (through {@link StoreStatusSink}) and
 * the dispatcher's parts (through {@link DispatchStatusWriter}, {@link DispatchHistory}) are put into
 * the stored status without overwriting each other or a field someone else wrote. A store that lets
 * another write in between a writer's read and its write stands for a second thread, the API or
 * another replica writing the same Workload at that moment.
 */
class WorkloadStatusStoreTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant AT = Instant.parse("2026-12-01T12:00:05Z");
    private static final WorkloadKey KEY = WorkloadKey.of("team-a", "job-1");
    private static final ObjectKey OBJECT_KEY = new ObjectKey(Resources.WORKLOADS.resource(), "team-a", "job-1");
    private static final WorkloadStatus RESERVED = new WorkloadStatus(
            List.of(new Condition("QuotaReserved", true, "QuotaReserved", "reserved in cq", AT)), null, List.of(), 0);
    private static final WorkloadStatus ADMITTED = new WorkloadStatus(List.of(
            new Condition("QuotaReserved", true, "QuotaReserved", "reserved in cq", AT),
            new Condition("Admitted", true, "Admitted", "admitted", AT.plusSeconds(1))), null, List.of(), 0);

    private InterleavingStore store;
    private ManagerState state;

    @BeforeEach
    void storeOneWorkload() {
        store = new InterleavingStore(new MemoryObjectStore());
        store.create(OBJECT_KEY, (ObjectNode) json("{\"apiVersion\":\"kueue.x-k8s.io/v1beta2\",\"kind\":\"Workload\","
                + "\"metadata\":{\"name\":\"job-1\",\"namespace\":\"team-a\"},\"spec\":{\"queueName\":\"lq\"}}"));
        state = ManagerState.readOnly(store);
    }

    @Test
    void aFieldAnExternalControllerWroteSurvivesTheAdmissionControllersNextWrite() {
        ObjectNode status = JSON.createObjectNode();
        status.putArray("nominatedClusterNames").add("east").add("west");
        store.replaceStatus(OBJECT_KEY, status, null);

        new StoreStatusSink(store, DispatchPort.NONE, key -> { }).workloadChanged(KEY, true, RESERVED);

        assertThat(stored().path("nominatedClusterNames")).as("the External strategy's nomination is not the controller's to drop")
                .isEqualTo(json("[\"east\",\"west\"]"));
        assertThat(stored().path("conditions").get(0).path("type").asText()).isEqualTo("QuotaReserved");
    }

    @Test
    void dispatchWritingItsBlockWhileAdmissionWritesItsConditionsKeepsBoth() {
        new StoreStatusSink(store, DispatchPort.NONE, key -> { }).workloadChanged(KEY, true, RESERVED);
        store.betweenReadAndWrite(() -> DispatchStatusWriter.writeDispatch(state, KEY, DispatchStatus.dispatched("east", "a-1"), null));

        new StoreStatusSink(store, DispatchPort.NONE, key -> { }).workloadChanged(KEY, true, ADMITTED);

        assertThat(store.interleaved).isEqualTo(1);
        assertThat(stored().path("dispatch").path("attemptId").asText()).as("dispatch's block").isEqualTo("a-1");
        assertThat(stored().path("conditions")).as("admission's conditions").hasSize(2);
    }

    @Test
    void admissionWritingItsConditionsWhileDispatchRecordsAnOutcomeKeepsBoth() {
        new StoreStatusSink(store, DispatchPort.NONE, key -> { }).workloadChanged(KEY, true, RESERVED);
        DispatchStatusWriter.writeDispatch(state, KEY, DispatchStatus.dispatched("east", "a-1"), null);
        store.betweenReadAndWrite(() -> new StoreStatusSink(store, DispatchPort.NONE, key -> { }).workloadChanged(KEY, true, ADMITTED));

        DispatchHistory.record(state, KEY, "a-1", "east", 1, DispatchStatus.DISPATCHED, null, AT);

        assertThat(store.interleaved).isEqualTo(1);
        assertThat(stored().path("conditions")).as("admission's conditions").hasSize(2);
        assertThat(stored().path("dispatchHistory").get(0).path("attemptId").asText()).as("dispatch's history").isEqualTo("a-1");
        assertThat(stored().path("dispatch").path("attemptId").asText()).isEqualTo("a-1");
    }

    @Test
    void aStatusWrittenMeanwhileOnEveryTryIsAFailedWriteNotASilentOverwrite() {
        store.betweenEveryReadAndWrite(() -> DispatchHistory.record(state, KEY, "a-" + store.interleaved, "east", store.interleaved,
                DispatchStatus.DISPATCHED, null, AT));

        assertThatThrownBy(() -> new WorkloadStatusStore(store).writeAdmission(KEY, RESERVED)).isInstanceOf(ConflictException.class);

        assertThat(store.interleaved).isEqualTo(WorkloadStatusStore.TRIES);
        assertThat(stored().has("conditions")).isFalse();
        assertThat(stored().path("dispatchHistory")).hasSize(WorkloadStatusStore.TRIES);
    }

    @Test
    void aWorkloadThatIsGoneIsLeftAlone() {
        store.delete(OBJECT_KEY);

        new StoreStatusSink(store, DispatchPort.NONE, key -> { }).workloadChanged(KEY, true, RESERVED);
        DispatchStatusWriter.writeDispatch(state, KEY, DispatchStatus.dispatched("east", "a-1"), "east");

        assertThat(store.get(OBJECT_KEY)).isEmpty();
    }

    private JsonNode stored() {
        return store.get(OBJECT_KEY).orElseThrow().object().path("status");
    }

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** A memory store that runs another writer's write just before a status write of the workload reaches it. */
    private static final class InterleavingStore implements ObjectStore {
        private final ObjectStore real;
        private Runnable otherWriter;
        private boolean everyTime;
        private boolean inOtherWrite;
        int interleaved;

        InterleavingStore(ObjectStore real) {
            this.real = real;
        }

        void betweenReadAndWrite(Runnable write) {
            otherWriter = write;
            everyTime = false;
        }

        void betweenEveryReadAndWrite(Runnable write) {
            otherWriter = write;
            everyTime = true;
        }

        @Override
        public StoredObject replaceStatus(ObjectKey key, ObjectNode status, String expectedResourceVersionOrNull) {
            if (otherWriter != null && !inOtherWrite && key.equals(OBJECT_KEY)) {
                Runnable write = otherWriter;
                if (!everyTime) otherWriter = null;
                inOtherWrite = true;
                try {
                    interleaved++;
                    write.run();
                } finally {
                    inOtherWrite = false;
                }
            }
            return real.replaceStatus(key, status, expectedResourceVersionOrNull);
        }

        @Override
        public Optional<StoredObject> get(ObjectKey key) {
            return real.get(key);
        }

        @Override
        public List<StoredObject> list(String resource, String namespaceOrNull) {
            return real.list(resource, namespaceOrNull);
        }

        @Override
        public StoredObject create(ObjectKey key, ObjectNode object) {
            return real.create(key, object);
        }

        @Override
        public StoredObject replace(ObjectKey key, ObjectNode object, String expectedResourceVersionOrNull) {
            return real.replace(key, object, expectedResourceVersionOrNull);
        }

        @Override
        public StoredObject delete(ObjectKey key) {
            return real.delete(key);
        }

        @Override
        public long revision() {
            return real.revision();
        }

        @Override
        public void close() {
            real.close();
        }
    }
}
