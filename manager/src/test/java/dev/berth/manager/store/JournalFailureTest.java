package dev.berth.manager.store;

import static dev.berth.manager.store.ObjectStoreContract.CLOCK;
import static dev.berth.manager.store.ObjectStoreContract.key;
import static dev.berth.manager.store.ObjectStoreContract.queue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A journal that can no longer write says why, for the manager's liveness check, and refuses every later write. */
class JournalFailureTest {
    @TempDir
    Path directory;

    @Test
    void aJournalWhoseFileFailsUnderItReportsTheFailureAndRefusesLaterWrites() throws Exception {
        FileChannel channel = FileChannel.open(FileJournal.journalFile(directory), StandardOpenOption.CREATE_NEW,
                StandardOpenOption.READ, StandardOpenOption.WRITE);
        FileJournal journal = new FileJournal(directory, channel, Long.MAX_VALUE, StorageTransformer.IDENTITY);
        ObjectTable table = new ObjectTable(CLOCK);
        table.logTo(journal);
        table.create(key("a"), queue("a", 1));
        assertThat(journal.failure()).isEmpty();

        assertThatThrownBy(() -> table.inOneSync(() -> {
            table.create(key("b"), queue("b", 1));
            closeQuietly(channel); // the disk goes away under the journal: the group's force fails
            return null;
        })).hasMessageContaining("cannot sync journal");

        assertThat(journal.failure()).hasValueSatisfying(why -> assertThat(why).startsWith("a journal force failed"));
        assertThatThrownBy(() -> table.create(key("c"), queue("c", 1))).hasMessageContaining("restart the manager");
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            channel.close();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
