package dev.berth.manager.store;

import dev.berth.manager.DaemonThreads;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The journal of a {@link FileObjectStore}: appends each write and forces it to disk before the
 * write is acknowledged, or, inside a group ({@link ObjectStore#inOneSync}), once for every write of the
 * group before the group ends (group commit: the group's writes are acknowledged only after that). The
 * journal is one sequential file, so one force covers every append before it (Secrets' values
 * encrypted first when encryption at rest is configured; a compaction rewrites every Secret with the
 * current write key).
 *
 * <p>Past compactAfterBytes it compacts in the background, as etcd and Redis rewrite their logs: the
 * full journal is forced and set aside ({@link #previousJournalFile}), an empty one takes the next
 * appends at once, and another thread writes a snapshot of the table as it stood (its objects are
 * immutable versions) and then deletes the set-aside journal. Writes never wait for the snapshot (at
 * 20,000 objects it took the state thread 0.3 to 0.8 s). Recovery reads the snapshot, then the set-aside
 * journal if a crash left it, then the journal, skipping what the snapshot already holds.
 */
final class FileJournal implements WriteLog {
    private static final Logger log = LoggerFactory.getLogger(FileJournal.class);

    private final Path directory;
    /** Swapped by a compaction under {@link #forceLock}, so the sync thread never forces a closed channel. */
    private volatile FileChannel channel;
    private final Object forceLock = new Object();
    private final long compactAfterBytes;
    private final StorageTransformer transformer;
    /** What broke the journal, for the health checks; null while it works. Once set, every write is refused. */
    private volatile String brokenBecause;
    /** Open groups (nested {@link #beginGroup()}s) and whether an append in them still waits for its force. */
    private int groupDepth;
    private boolean unforcedInGroup;
    private final java.util.concurrent.atomic.AtomicLong forces = new java.util.concurrent.atomic.AtomicLong();
    /** Forces the groups that end with {@link #endGroupThen}; started by the first of them. */
    private JournalSyncer syncer;
    /** The snapshot being written in the background, or null; its end deletes the set-aside journal. */
    private Future<?> compaction;
    private ExecutorService compactor;

    FileJournal(Path directory, FileChannel channel, long compactAfterBytes, StorageTransformer transformer) {
        this.directory = directory;
        this.channel = channel;
        this.compactAfterBytes = compactAfterBytes;
        this.transformer = transformer;
    }

    static Path journalFile(Path directory) {
        return directory.resolve("journal.log");
    }

    static Path snapshotFile(Path directory) {
        return directory.resolve("snapshot.dat");
    }

    static Path snapshotTempFile(Path directory) {
        return directory.resolve("snapshot.tmp");
    }

    /** The full journal set aside while its snapshot is written; gone once the snapshot is. */
    static Path previousJournalFile(Path directory) {
        return directory.resolve("journal.prev.log");
    }

    @Override
    public void append(WriteRecord record, ObjectTable table) {
        refuseIfBroken();
        try {
            long end = channel.size();
            if (end >= compactAfterBytes && startCompaction(table)) end = channel.size();
            try {
                writeFully(JournalFormat.encode(record, transformer), end);
                if (FileObjectStore.BEST_EFFORT_RESOURCES.contains(record.key().resource())) {
                    // synced with the next forced write
                } else if (groupDepth > 0) {
                    unforcedInGroup = true;
                } else {
                    force();
                }
            } catch (IOException e) {
                undoPartialAppend(end);
                throw e;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write journal in " + directory, e);
        }
    }

    @Override
    public void beginGroup() {
        groupDepth++;
    }

    /**
     * The outermost end forces the journal once for the whole group. A failed force leaves writes in
     * memory that may not be on disk, so the journal refuses every later write: a restart recovers what is.
     */
    @Override
    public void endGroup() {
        if (groupDepth == 0) throw new IllegalStateException("endGroup without beginGroup");
        if (--groupDepth > 0 || !unforcedInGroup) return;
        unforcedInGroup = false;
        syncNow();
    }

    /**
     * Ends a group without waiting for its force: the sync thread forces once for every group waiting and then runs
     * tells afterSync durable, or lost if the force failed (pipelined group commit); durable at once, on this thread, when
     * the group appended nothing that needs it.
     */
    @Override
    public void endGroupThen(SyncOutcome afterSync) {
        if (groupDepth == 0) throw new IllegalStateException("endGroup without beginGroup");
        if (groupDepth > 1) throw new IllegalStateException("only the outermost group can end without waiting for its force");
        groupDepth = 0;
        if (!unforcedInGroup) { // as endGroup: a group that wrote nothing to force ends even on a broken journal
            afterSync.durable();
            return;
        }
        unforcedInGroup = false;
        refuseIfBroken();
        if (syncer == null) syncer = new JournalSyncer("berth-journal-sync", this::force, this::syncFailed);
        syncer.afterNextForce(afterSync);
    }

    /** Forces now, on this thread, every append made so far, including those of groups whose force is still to come. */
    @Override
    public void syncNow() {
        refuseIfBroken();
        try {
            force();
        } catch (IOException e) {
            syncFailed(e);
            throw new UncheckedIOException("cannot sync journal in " + directory, e);
        }
    }

    private void syncFailed(IOException cause) {
        broke("a journal force failed: " + cause);
        log.atError().setMessage("journal group sync failed; refusing further writes, and nothing waiting for it is acknowledged")
                .addKeyValue("directory", directory).setCause(cause).log();
    }

    /**
     * Sets the full journal aside and starts the snapshot in the background; false when one is still being written,
     * or an earlier one failed and left its set-aside journal (the journal then keeps growing; recovery reads both).
     * Called with the table's lock held.
     */
    private boolean startCompaction(ObjectTable table) throws IOException {
        if ((compaction != null && !compaction.isDone()) || Files.exists(previousJournalFile(directory))) return false;
        synchronized (forceLock) {
            // every append so far durable in the file set aside, an open group's and those the sync thread waits for too
            channel.force(true);
            channel.close();
            try {
                Files.move(journalFile(directory), previousJournalFile(directory), StandardCopyOption.ATOMIC_MOVE);
                channel = FileChannel.open(journalFile(directory), Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                        StandardOpenOption.WRITE), PrivateFiles.fileAttributes(directory));
            } catch (IOException e) {
                broke("the journal could not be set aside for a compaction: " + e);
                log.atError().setMessage("could not set the journal aside for a compaction; refusing further writes")
                        .addKeyValue("directory", directory).setCause(e).log();
                throw e;
            }
        }
        SnapshotWriter.forceDirectory(directory);
        List<StoredObject> objects = table.all();
        long revision = table.revision();
        if (compactor == null) compactor = Executors.newSingleThreadExecutor(DaemonThreads.named("berth-store-compaction"));
        compaction = compactor.submit(() -> writeSnapshotAndDropPrevious(objects, revision));
        return true;
    }

    private void writeSnapshotAndDropPrevious(List<StoredObject> objects, long revision) {
        long started = System.nanoTime();
        try {
            int count = SnapshotWriter.write(directory, objects, revision, transformer);
            Files.deleteIfExists(previousJournalFile(directory));
            SnapshotWriter.forceDirectory(directory);
            log.atInfo().setMessage("compacted object journal in the background").addKeyValue("directory", directory)
                    .addKeyValue("objects", count).addKeyValue("revision", revision)
                    .addKeyValue("millis", (System.nanoTime() - started) / 1_000_000).log();
        } catch (IOException | RuntimeException e) {
            log.atError().setMessage("background compaction failed; the set-aside journal is kept and read at recovery")
                    .addKeyValue("directory", directory).setCause(e).log();
        }
    }

    /** Waits for a background compaction to end (bounded); called with the table's lock held, or at close. */
    private void awaitCompaction() {
        Future<?> running = compaction;
        if (running == null) return;
        try {
            running.get(5, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            log.atWarn().setMessage("background compaction did not end").addKeyValue("directory", directory).setCause(e).log();
        }
    }

    /**
     * Writes the table as a snapshot and empties the journal, now, after any background compaction; the set-aside
     * journal, if one was left, goes too (the snapshot holds everything). Called with the table's lock held.
     */
    void compact(ObjectTable table) throws IOException {
        awaitCompaction();
        long started = System.nanoTime();
        int count = SnapshotWriter.write(directory, table.all(), table.revision(), transformer);
        synchronized (forceLock) {
            channel.truncate(0);
            channel.force(true);
        }
        Files.deleteIfExists(previousJournalFile(directory));
        SnapshotWriter.forceDirectory(directory);
        log.atInfo().setMessage("compacted object journal")
                .addKeyValue("directory", directory)
                .addKeyValue("objects", count)
                .addKeyValue("revision", table.revision())
                .addKeyValue("millis", (System.nanoTime() - started) / 1_000_000)
                .log();
    }

    private void force() throws IOException {
        synchronized (forceLock) {
            channel.force(true);
        }
        forces.incrementAndGet();
    }

    /** How many times an append, a group's end or the sync thread forced the journal (compactions not counted). */
    long forces() {
        return forces.get();
    }

    long size() throws IOException {
        return channel.size();
    }

    @Override
    public void close() {
        if (syncer != null) syncer.close(); // the groups still waiting are forced, and told, first
        awaitCompaction();
        if (compactor != null) compactor.shutdown();
        try {
            channel.close();
        } catch (IOException e) {
            log.atWarn().setMessage("closing journal failed").addKeyValue("directory", directory).setCause(e).log();
        }
    }

    private void writeFully(byte[] bytes, long position) throws IOException {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        long at = position;
        while (buffer.hasRemaining()) at += channel.write(buffer, at);
    }

    private void undoPartialAppend(long end) {
        try {
            channel.truncate(end);
            channel.force(true);
        } catch (IOException e) {
            broke("a failed append could not be undone: " + e);
            log.atError().setMessage("journal append failed and could not be undone; refusing further writes")
                    .addKeyValue("directory", directory).setCause(e).log();
        }
    }

    private void broke(String because) {
        brokenBecause = because;
    }

    private void refuseIfBroken() {
        if (brokenBecause != null) throw new IllegalStateException("journal in " + directory + " failed earlier; restart the manager");
    }

    /** Why the journal refuses every write until the manager restarts; empty while it works. */
    java.util.Optional<String> failure() {
        return java.util.Optional.ofNullable(brokenBecause);
    }
}
