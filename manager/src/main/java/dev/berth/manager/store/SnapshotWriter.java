package dev.berth.manager.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a {@link FileObjectStore}'s snapshot: every object of one revision into a temp file, forced, then renamed
 * over the snapshot atomically and the directory forced. A crash at any point leaves the old snapshot or the new one
 * whole, never a torn one. The objects are immutable versions, so a snapshot can be written from any thread.
 */
final class SnapshotWriter {
    private static final Logger log = LoggerFactory.getLogger(SnapshotWriter.class);

    private SnapshotWriter() {}

    /** Writes the objects, all of the given revision, as the directory's snapshot; returns how many. */
    static int write(Path directory, List<StoredObject> objects, long revision, StorageTransformer transformer) throws IOException {
        Path temp = FileJournal.snapshotTempFile(directory);
        try (FileChannel snapshot = FileChannel.open(temp, java.util.Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING), PrivateFiles.fileAttributes(directory))) {
            write(snapshot, JournalFormat.encodeSnapshotHeader(revision));
            for (StoredObject object : objects) write(snapshot, JournalFormat.encode(new WriteRecord(WriteRecord.Op.PUT, object), transformer));
            snapshot.force(true);
        }
        Files.move(temp, FileJournal.snapshotFile(directory), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        forceDirectory(directory);
        return objects.size();
    }

    static void forceDirectory(Path directory) {
        try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
            dir.force(true);
        } catch (IOException | UnsupportedOperationException e) {
            log.atDebug().setMessage("cannot force directory; rename durability left to the file system")
                    .addKeyValue("directory", directory).log();
        }
    }

    private static void write(FileChannel target, byte[] bytes) throws IOException {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        while (buffer.hasRemaining()) target.write(buffer);
    }
}
