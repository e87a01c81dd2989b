package dev.berth.manager.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The contract, plus what only a durable store promises: reopening, torn tails, compaction, locking. */
class FileObjectStoreTest extends ObjectStoreContract {
    @TempDir
    Path directory;

    @Override
    ObjectStore newStore() {
        return FileObjectStore.open(directory, CLOCK);
    }

    private ObjectStore reopen() {
        store.close();
        store = FileObjectStore.open(directory, CLOCK);
        return store;
    }

    @Test
    void reopeningGivesTheSameObjectsAndRevision() {
        store.create(key("a"), queue("a", 1));
        store.create(key("b"), queue("b", 1));
        store.replace(key("a"), queue("a", 2), null);
        store.replaceStatus(key("a"), object("{'x':1}"), null);
        store.delete(key("b"));
        List<StoredObject> before = store.list(QUEUES, null);

        reopen();

        assertThat(store.revision()).isEqualTo(5);
        assertThat(store.list(QUEUES, null)).isEqualTo(before);
        assertThat(store.create(key("c"), queue("c", 1)).resourceVersion()).isEqualTo(6);
    }

    @Test
    void bestEffortEventsShareTheJournalInOrderWithForcedWrites() {
        ObjectKey event = new ObjectKey("/events", "default", "wl.1");
        store.create(event, object("{'reason':'Admitted'}"));
        store.create(key("a"), queue("a", 1));

        reopen();

        assertThat(store.get(event)).isPresent();
        assertThat(store.get(event).get().resourceVersion()).isLessThan(store.get(key("a")).get().resourceVersion());
    }

    @Test
    void aTornLastRecordIsDroppedAndTheRestSurvive() throws IOException {
        store.create(key("a"), queue("a", 1));
        store.create(key("b"), queue("b", 1));
        store.close();
        Path journal = directory.resolve("journal.log");
        long size = Files.size(journal);
        try (FileChannel channel = FileChannel.open(journal, StandardOpenOption.WRITE)) {
            channel.truncate(size - 5);
        }

        store = FileObjectStore.open(directory, CLOCK);

        assertThat(store.list(QUEUES, null)).extracting(s -> s.key().name()).containsExactly("a");
        assertThat(store.revision()).isEqualTo(1);
        store.create(key("c"), queue("c", 1));
        reopen();
        assertThat(store.list(QUEUES, null)).extracting(s -> s.key().name()).containsExactly("a", "c");
    }

    @Test
    void aCorruptLastRecordIsDetectedByItsChecksum() throws IOException {
        store.create(key("a"), queue("a", 1));
        store.create(key("b"), queue("b", 1));
        store.close();
        Path journal = directory.resolve("journal.log");
        byte[] bytes = Files.readAllBytes(journal);
        bytes[bytes.length - 3] ^= 0x5a;
        Files.write(journal, bytes);

        store = FileObjectStore.open(directory, CLOCK);

        assertThat(store.list(QUEUES, null)).extracting(s -> s.key().name()).containsExactly("a");
    }

    @Test
    void compactionKeepsEverything() throws IOException {
        store.close();
        store = FileObjectStore.open(directory, CLOCK, 2_000);
        for (int i = 0; i < 50; i++) store.create(key("q" + i), queue("q" + i, i));
        for (int i = 0; i < 50; i += 2) store.delete(key("q" + i));
        store.replaceStatus(key("q1"), object("{'x':1}"), null);
        List<StoredObject> before = store.list(QUEUES, null);
        long revision = store.revision();

        // compacted in the background: the full journal set aside at once, the snapshot written by another thread
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(directory.resolve("snapshot.dat"))
                && !Files.exists(directory.resolve("journal.prev.log")));
        assertThat(((FileObjectStore) store).journalBytes()).as("the journal was started afresh").isLessThan(Files.size(directory.resolve("snapshot.dat")));
        reopen();

        assertThat(store.list(QUEUES, null)).isEqualTo(before).hasSize(25);
        assertThat(store.revision()).isEqualTo(revision);
    }

    @Test
    void writesMadeWhileTheSnapshotIsWrittenSurviveACloseRightAfter() {
        store.close();
        store = FileObjectStore.open(directory, CLOCK, 1_000);
        for (int i = 0; i < 200; i++) store.create(key("q" + i), queue("q" + i, i));
        long revision = store.revision();

        reopen(); // close waits for a compaction under way

        assertThat(store.list(QUEUES, null)).hasSize(200);
        assertThat(store.revision()).isEqualTo(revision);
    }

    @Test
    void aCrashBeforeTheSnapshotLeavesTheSetAsideJournalWhichRecoveryReadsFirst() throws IOException {
        store.create(key("a"), queue("a", 1));
        store.create(key("b"), queue("b", 1));
        store.close();
        // as after a crash between setting the full journal aside and writing its snapshot: later writes in a new journal
        Files.move(directory.resolve("journal.log"), directory.resolve("journal.prev.log"));
        store = FileObjectStore.open(directory, CLOCK);
        assertThat(store.list(QUEUES, null)).extracting(o -> o.key().name()).containsExactly("a", "b");
        store.replace(key("a"), queue("a", 7), "1");
        store.delete(key("b"));

        reopen();

        assertThat(Files.exists(directory.resolve("journal.prev.log"))).as("folded into a snapshot at the first open").isFalse();
        assertThat(store.list(QUEUES, null)).extracting(o -> o.key().name()).containsExactly("a");
        assertThat(store.get(key("a")).orElseThrow().object().at("/spec/cpu").asInt()).isEqualTo(7);
        assertThat(store.revision()).isEqualTo(4);
    }

    @Test
    void explicitCompactionThenMoreWritesSurvivesReopen() {
        store.create(key("a"), queue("a", 1));
        ((FileObjectStore) store).compact();
        assertThat(((FileObjectStore) store).journalBytes()).isZero();
        store.replace(key("a"), queue("a", 5), "1");
        reopen();
        assertThat(store.get(key("a")).orElseThrow().object().at("/spec/cpu").asInt()).isEqualTo(5);
        assertThat(store.revision()).isEqualTo(2);
    }

    @Test
    void conflictIsNotJournaled() {
        store.create(key("a"), queue("a", 1));
        assertThatThrownBy(() -> store.replace(key("a"), queue("a", 2), "7")).isInstanceOf(ConflictException.class);
        reopen();
        assertThat(store.revision()).isEqualTo(1);
        assertThat(store.get(key("a")).orElseThrow().object().at("/spec/cpu").asInt()).isEqualTo(1);
    }

    @Test
    void aSecondStoreCannotOpenTheSameDirectory() {
        assertThatThrownBy(() -> FileObjectStore.open(directory, CLOCK))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("in use");
    }
}
