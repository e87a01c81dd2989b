package dev.berth.manager.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.manager.testing.NeedsPostgres;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The contract against a real PostgreSQL, plus what sharing a database between replicas promises. */
@NeedsPostgres
class PostgresObjectStoreTest extends ObjectStoreContract {
    private static final String SCHEMA = "store_contract";
    private PostgresConfig config;

    @Override
    ObjectStore newStore() {
        config = PostgresTestDatabase.freshSchema(SCHEMA);
        return PostgresObjectStore.open(config, CLOCK);
    }

    @Test
    void theReadinessRoundTripPassesWhileTheDatabaseAnswersAndSaysWhyOnceItCannot() {
        assertThat(store.unreachable()).isEmpty();
        store.close(); // the pool is gone: no connection can be had, as when the database is down

        assertThat(store.unreachable()).hasValueSatisfying(why -> assertThat(why).startsWith("PostgreSQL read failed"));
        store = PostgresObjectStore.open(config, CLOCK);
        assertThat(store.unreachable()).isEmpty();
    }

    @Test
    void reopeningGivesTheSameObjectsAndRevision() {
        store.create(key("a"), queue("a", 1));
        store.create(key("b"), queue("b", 1));
        store.replaceStatus(key("a"), object("{'x':1}"), null);
        store.delete(key("b"));
        List<StoredObject> before = store.list(QUEUES, null);
        store.close();

        store = PostgresObjectStore.open(config, CLOCK);

        assertThat(store.list(QUEUES, null)).isEqualTo(before);
        assertThat(store.revision()).isEqualTo(4);
        assertThat(store.create(key("c"), queue("c", 1)).resourceVersion()).isEqualTo(5);
    }

    @Test
    void twoStoresOnOneDatabaseSeeEachOthersCommittedWritesAndConflict() {
        try (ObjectStore other = PostgresObjectStore.open(config, CLOCK)) {
            store.create(key("a"), queue("a", 1));
            assertThat(other.get(key("a")).orElseThrow().object().at("/spec/cpu").asInt()).isEqualTo(1);

            other.replace(key("a"), queue("a", 2), "1");
            assertThatThrownBy(() -> store.replace(key("a"), queue("a", 3), "1")).isInstanceOf(ConflictException.class);
            assertThatThrownBy(() -> other.create(key("a"), queue("a", 9))).isInstanceOf(AlreadyExistsException.class);
            assertThat(store.get(key("a")).orElseThrow().resourceVersion()).isEqualTo(2);
            assertThat(store.revision()).isEqualTo(other.revision()).isEqualTo(2);
        }
    }

    @Test
    void openingTwiceConcurrentlyCreatesTheSchemaOnce() throws Exception {
        store.close();
        PostgresConfig fresh = PostgresTestDatabase.freshSchema(SCHEMA);
        var pool = java.util.concurrent.Executors.newFixedThreadPool(3);
        try {
            var opens = List.of(pool.submit(() -> PostgresObjectStore.open(fresh, CLOCK)),
                    pool.submit(() -> PostgresObjectStore.open(fresh, CLOCK)),
                    pool.submit(() -> PostgresObjectStore.open(fresh, CLOCK)));
            for (var open : opens) open.get().close();
        } finally {
            pool.shutdownNow();
        }
        store = PostgresObjectStore.open(fresh, CLOCK);
        assertThat(store.revision()).isZero();
    }

    @Test
    void anUnreachableDatabaseIsAClearError() {
        PostgresConfig nowhere = new PostgresConfig("jdbc:postgresql://127.0.0.1:1/none?connectTimeout=2", "berth", "x", SCHEMA, 1);
        assertThatThrownBy(() -> PostgresObjectStore.open(nowhere, CLOCK))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("cannot open the PostgreSQL store")
                .hasMessageNotContaining("password=");
    }
}
