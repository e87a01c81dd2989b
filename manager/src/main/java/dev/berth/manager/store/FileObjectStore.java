package dev.berth.manager.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded durable {@link ObjectStore}: a directory holding a snapshot and a journal. Every
 * write is appended to the journal and forced to disk before it returns, except Events
 * ({@link #BEST_EFFORT_RESOURCES}). Opening loads the
 * snapshot, replays the journal and drops a torn tail left by a crash. An exclusive lock on the
 * directory keeps a second manager out.
 */
public final class FileObjectStore extends TableBackedStore {
    public static final long DEFAULT_COMPACT_AFTER_BYTES = 64L * 1024 * 1024;
    /**
     * Resources whose writes are appended to the journal without forcing it: core/v1 Events, which
     * the API server also keeps best-effort. The journal is one sequential file, so the next forced
     * write of any other object makes them durable with it, in order; a crash before that loses
     * only the newest events, never an object written after them.
     */
    static final java.util.Set<String> BEST_EFFORT_RESOURCES = java.util.Set.of("/events");
    private static final Logger log = LoggerFactory.getLogger(FileObjectStore.class);

    private final FileJournal journal;
    private final FileChannel lockChannel;

    private FileObjectStore(ObjectTable table, FileJournal journal, FileChannel lockChannel) {
        super(table);
        this.journal = journal;
        this.lockChannel = lockChannel;
    }

    public static FileObjectStore open(Path directory, Clock clock) {
        return open(directory, clock, DEFAULT_COMPACT_AFTER_BYTES);
    }

    /**
     * @throws IllegalStateException if another store holds the directory or its snapshot is unreadable
     */
    public static FileObjectStore open(Path directory, Clock clock, long compactAfterBytes) {
        return open(directory, clock, compactAfterBytes, StorageTransformer.IDENTITY);
    }

    /**
     * As above, with the objects passed through the transformer on their way to disk and back
     * (encryption at rest of Secrets).
     *
     * @throws IllegalStateException also when a stored object cannot be read back with the transformer (a missing or wrong key)
     */
    public static FileObjectStore open(Path directory, Clock clock, long compactAfterBytes, StorageTransformer transformer) {
        FileChannel lockChannel = null;
        try {
            PrivateFiles.ownDirectory(directory);
            lockChannel = lock(directory);
            PrivateFiles.restrictIfPresent(FileJournal.snapshotFile(directory));
            PrivateFiles.restrictIfPresent(FileJournal.journalFile(directory));
            PrivateFiles.restrictIfPresent(FileJournal.previousJournalFile(directory));
            ObjectTable table = new ObjectTable(clock);
            long snapshotRevision = loadSnapshot(directory, table, transformer);
            // a journal set aside for a compaction that did not finish comes first: its writes precede the journal's
            boolean setAside = Files.exists(FileJournal.previousJournalFile(directory));
            replayJournal(directory, FileJournal.previousJournalFile(directory), table, snapshotRevision, transformer);
            replayJournal(directory, FileJournal.journalFile(directory), table, snapshotRevision, transformer);
            FileChannel channel = FileChannel.open(FileJournal.journalFile(directory), java.util.Set.of(
                    StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE), PrivateFiles.fileAttributes(directory));
            FileJournal journal = new FileJournal(directory, channel, compactAfterBytes, transformer);
            table.logTo(journal);
            if (setAside) journal.compact(table); // one snapshot of everything; the set-aside journal goes
            log.atInfo().setMessage("opened object store")
                    .addKeyValue("directory", directory)
                    .addKeyValue("revision", table.revision())
                    .log();
            return new FileObjectStore(table, journal, lockChannel);
        } catch (IOException e) {
            closeQuietly(lockChannel);
            throw new UncheckedIOException("cannot open object store in " + directory, e);
        } catch (RuntimeException e) {
            closeQuietly(lockChannel);
            throw e;
        }
    }

    @Override
    public java.util.Optional<String> failure() {
        return journal.failure();
    }

    /** Writes a snapshot now and empties the journal. */
    public void compact() {
        synchronized (table) {
            try {
                journal.compact(table);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** The journal's current size in bytes. */
    public long journalBytes() {
        synchronized (table) { // a compaction swaps the journal's file under the table's lock
            try {
                return journal.size();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** How many times writes forced the journal to disk since opening; a group ({@link #inOneSync}) forces once. */
    public long journalForces() {
        synchronized (table) {
            return journal.forces();
        }
    }

    @Override
    public void close() {
        super.close();
        closeQuietly(lockChannel);
    }

    private static FileChannel lock(Path directory) throws IOException {
        FileChannel channel = FileChannel.open(directory.resolve("LOCK"), java.util.Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE),
                PrivateFiles.fileAttributes(directory));
        PrivateFiles.restrictIfPresent(directory.resolve("LOCK"));
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null;
        }
        if (lock == null) {
            channel.close();
            throw new IllegalStateException("object store directory " + directory + " is in use by another manager");
        }
        return channel;
    }

    private static long loadSnapshot(Path directory, ObjectTable table, StorageTransformer transformer) throws IOException {
        Files.deleteIfExists(FileJournal.snapshotTempFile(directory));
        Path snapshot = FileJournal.snapshotFile(directory);
        if (!Files.exists(snapshot)) return 0;
        JournalFormat.Decoded decoded = JournalFormat.decode(Files.readAllBytes(snapshot));
        if (decoded.problem() != null || decoded.entries().isEmpty()
                || !JournalFormat.SNAPSHOT.equals(decoded.entries().get(0).op())) {
            throw new IllegalStateException("snapshot " + snapshot + " is damaged: "
                    + (decoded.problem() == null ? "no header" : decoded.problem()));
        }
        long revision = decoded.entries().get(0).revision();
        for (JournalFormat.Entry entry : decoded.entries().subList(1, decoded.entries().size())) {
            table.apply(JournalFormat.opened(entry.write(), transformer));
        }
        table.restoreRevision(revision);
        return revision;
    }

    private static void replayJournal(Path directory, Path file, ObjectTable table, long snapshotRevision, StorageTransformer transformer)
            throws IOException {
        if (!Files.exists(file)) return;
        JournalFormat.Decoded decoded = JournalFormat.decode(Files.readAllBytes(file));
        for (JournalFormat.Entry entry : decoded.entries()) {
            if (entry.write() != null && entry.revision() > snapshotRevision) table.apply(JournalFormat.opened(entry.write(), transformer));
        }
        if (decoded.problem() != null) {
            log.atWarn().setMessage("dropping a torn or corrupt journal tail, as after a crash mid-write")
                    .addKeyValue("directory", directory)
                    .addKeyValue("problem", decoded.problem())
                    .addKeyValue("keptBytes", decoded.validBytes())
                    .log();
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                channel.truncate(decoded.validBytes());
                channel.force(true);
            }
        }
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel == null) return;
        try {
            channel.close();
        } catch (IOException e) {
            log.atDebug().setMessage("closing lock file failed").setCause(e).log();
        }
    }
}
