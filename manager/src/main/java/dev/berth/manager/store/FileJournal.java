package dev.berth.manager.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The journal of a {@link FileObjectStore}: appends each write and forces it to disk before the
 * write is acknowledged, or, inside a group ({@link ObjectStore#inOneSync}), once for every write of the
 * group before the group ends (group commit: the group's writes are acknowledged only after that). The
 * journal is one sequential file, so one force covers every append before it (Secrets' values
 * encrypted first when encryption at rest is configured; a
 * compaction rewrites every Secret with the current write key). Past compactAfterBytes it first writes a snapshot of the table (temp
 * file, force, atomic rename) and starts an empty journal.
 */
final class FileJournal implements WriteLog {
    private static final Logger log = LoggerFactory.getLogger(FileJournal.class);

    private final Path directory;
    private final FileChannel channel;
    private final long compactAfterBytes;
    private final StorageTransformer transformer;
    private boolean broken;
    /** Open groups (nested {@link #beginGroup()}s) and whether an append in them still waits for its force. */
    private int groupDepth;
    private boolean unforcedInGroup;
    private long forces;

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

    @Override
    public void append(WriteRecord record, ObjectTable table) {
        if (broken) throw new IllegalStateException("journal in " + directory + " failed earlier; restart the manager");
        try {
            long end = channel.size();
            if (end >= compactAfterBytes) {
                compact(table);
                end = channel.size();
            }
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
        if (broken) throw new IllegalStateException("journal in " + directory + " failed earlier; restart the manager");
        try {
            force();
        } catch (IOException e) {
            broken = true;
            log.atError().setMessage("journal group sync failed; refusing further writes").addKeyValue("directory", directory).setCause(e).log();
            throw new UncheckedIOException("cannot sync journal in " + directory, e);
        }
    }

    /** Writes the table as a snapshot and empties the journal. Called with the table's lock held. */
    void compact(ObjectTable table) throws IOException {
        long started = System.nanoTime();
        Path temp = snapshotTempFile(directory);
        int count = 0;
        try (FileChannel snapshot = FileChannel.open(temp, java.util.Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING), PrivateFiles.fileAttributes(directory))) {
            write(snapshot, JournalFormat.encodeSnapshotHeader(table.revision()));
            for (StoredObject object : table.all()) {
                write(snapshot, JournalFormat.encode(new WriteRecord(WriteRecord.Op.PUT, object), transformer));
                count++;
            }
            snapshot.force(true);
        }
        Files.move(temp, snapshotFile(directory), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        forceDirectory();
        channel.truncate(0);
        channel.force(true);
        log.atInfo().setMessage("compacted object journal")
                .addKeyValue("directory", directory)
                .addKeyValue("objects", count)
                .addKeyValue("revision", table.revision())
                .addKeyValue("millis", (System.nanoTime() - started) / 1_000_000)
                .log();
    }

    private void force() throws IOException {
        channel.force(true);
        forces++;
    }

    /** How many times an append or a group's end forced the journal (compactions not counted). */
    long forces() {
        return forces;
    }

    long size() throws IOException {
        return channel.size();
    }

    @Override
    public void close() {
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

    private static void write(FileChannel target, byte[] bytes) throws IOException {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        while (buffer.hasRemaining()) target.write(buffer);
    }

    private void undoPartialAppend(long end) {
        try {
            channel.truncate(end);
            channel.force(true);
        } catch (IOException e) {
            broken = true;
            log.atError().setMessage("journal append failed and could not be undone; refusing further writes")
                    .addKeyValue("directory", directory).setCause(e).log();
        }
    }

    private void forceDirectory() {
        try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
            dir.force(true);
        } catch (IOException | UnsupportedOperationException e) {
            log.atDebug().setMessage("cannot force directory; rename durability left to the file system")
                    .addKeyValue("directory", directory).log();
        }
    }
}
