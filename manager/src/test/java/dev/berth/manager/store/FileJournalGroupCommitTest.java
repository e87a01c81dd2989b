package dev.berth.manager.store;

import static dev.berth.manager.store.ObjectStoreContract.CLOCK;
import static dev.berth.manager.store.ObjectStoreContract.key;
import static dev.berth.manager.store.ObjectStoreContract.queue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Group commit in the embedded journal: the writes of one {@link ObjectStore#inOneSync} share one
 * force, made before it returns; outside a group every write is forced before it returns, as before.
 * Watchers ({@link ChangeFeedStore#listenOnceDurable}) hear of a grouped write only after the force.
 */
class FileJournalGroupCommitTest {
    @TempDir
    Path directory;
    private FileObjectStore store;

    @AfterEach
    void close() {
        if (store != null) store.close();
    }

    private FileObjectStore open() {
        if (store != null) store.close();
        store = FileObjectStore.open(directory, CLOCK);
        return store;
    }

    @Test
    void theWritesOfAGroupShareOneForceMadeBeforeTheGroupReturns() {
        open();
        long before = store.journalForces();

        store.inOneSync(() -> {
            for (int i = 0; i < 10; i++) store.create(key("q" + i), queue("q" + i, 1));
            assertThat(store.journalForces()).as("no force inside the group").isEqualTo(before);
            return null;
        });

        assertThat(store.journalForces()).isEqualTo(before + 1);
        open();
        assertThat(store.list(ObjectStoreContract.QUEUES, null)).hasSize(10);
    }

    @Test
    void outsideAGroupEveryWriteIsForcedBeforeItReturns() {
        open();
        long before = store.journalForces();

        store.create(key("a"), queue("a", 1));
        assertThat(store.journalForces()).isEqualTo(before + 1);
        store.replace(key("a"), queue("a", 2), null);
        assertThat(store.journalForces()).isEqualTo(before + 2);
    }

    @Test
    void nestedGroupsForceOnceWhenTheOutermostEnds() {
        open();
        long before = store.journalForces();

        store.inOneSync(() -> {
            store.create(key("a"), queue("a", 1));
            store.inOneSync(() -> store.create(key("b"), queue("b", 1)));
            assertThat(store.journalForces()).isEqualTo(before);
            return null;
        });

        assertThat(store.journalForces()).isEqualTo(before + 1);
    }

    @Test
    void aWriteRefusedInAGroupStillLeavesTheEarlierOnesDurableAndKeepsTheOrder() {
        open();
        long before = store.journalForces();

        assertThatThrownBy(() -> store.inOneSync(() -> {
            store.create(key("a"), queue("a", 1));
            store.replace(key("a"), queue("a", 2), null);
            return store.create(key("a"), queue("a", 3));
        })).isInstanceOf(AlreadyExistsException.class);

        assertThat(store.journalForces()).isEqualTo(before + 1);
        open();
        assertThat(store.get(key("a")).orElseThrow().object().at("/spec/cpu").asInt()).isEqualTo(2);
        assertThat(store.revision()).isEqualTo(2);
    }

    @Test
    void aGroupWithoutWritesForcesNothing() {
        open();
        store.create(key("a"), queue("a", 1));
        long before = store.journalForces();

        assertThat(store.inOneSync(() -> store.get(key("a")).isPresent())).isTrue();

        assertThat(store.journalForces()).isEqualTo(before);
    }

    @Test
    void watchersHearOfGroupedWritesOnlyOnceTheGroupIsForcedAndInOrder() {
        open();
        ChangeFeedStore feed = new ChangeFeedStore(store);
        List<String> internal = new ArrayList<>();
        List<String> watched = new ArrayList<>();
        List<Long> forcesWhenWatched = new ArrayList<>();
        feed.listen(change -> internal.add(change.type() + " " + change.object().key().name()));
        feed.listenOnceDurable(change -> {
            watched.add(change.type() + " " + change.object().key().name());
            forcesWhenWatched.add(store.journalForces());
        });
        long before = store.journalForces();

        feed.inOneSync(() -> {
            feed.create(key("a"), queue("a", 1));
            feed.create(key("b"), queue("b", 1));
            feed.delete(key("a"));
            assertThat(internal).as("the manager's own listeners hear at once").hasSize(3);
            assertThat(watched).as("watchers wait for the sync").isEmpty();
            return null;
        });

        assertThat(watched).containsExactly("ADDED a", "ADDED b", "DELETED a");
        assertThat(forcesWhenWatched).allMatch(forces -> forces == before + 1);

        feed.create(key("c"), queue("c", 1));
        assertThat(watched).last().isEqualTo("ADDED c");
    }

    @Test
    void whatWaitsForDurabilityRunsAfterTheGroupsForceAtOnceOutsideAGroupAndNeverWhenTheGroupFails() {
        open();
        ChangeFeedStore feed = new ChangeFeedStore(store);
        List<Long> forcesWhenRun = new ArrayList<>();
        long before = store.journalForces();

        feed.inOneSync(() -> {
            feed.create(key("a"), queue("a", 1));
            feed.whenDurable(() -> forcesWhenRun.add(store.journalForces()));
            assertThat(forcesWhenRun).as("not before the group's force").isEmpty();
            return null;
        });
        assertThat(forcesWhenRun).containsExactly(before + 1);

        feed.create(key("b"), queue("b", 1));
        feed.whenDurable(() -> forcesWhenRun.add(store.journalForces()));
        assertThat(forcesWhenRun).as("outside a group every write is durable already").containsExactly(before + 1, before + 2);

        assertThatThrownBy(() -> feed.inOneSync(() -> {
            feed.whenDurable(() -> forcesWhenRun.add(-1L));
            throw new IllegalStateException("the group failed");
        })).hasMessage("the group failed");
        assertThat(forcesWhenRun).as("a failed group runs none of its actions").hasSize(2);
    }
}
