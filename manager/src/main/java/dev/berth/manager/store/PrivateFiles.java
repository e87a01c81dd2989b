package dev.berth.manager.store;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Files that hold secrets (the store's journal and snapshot, which carry the worker kubeconfig
 * Secrets, and the audit log) are readable by the manager's user only: files 0600, their directory
 * 0700. New ones are created so (no window with a wider mode); existing ones are tightened on start.
 * On a file system without POSIX permissions nothing is changed.
 */
public final class PrivateFiles {
    private static final Logger log = LoggerFactory.getLogger(PrivateFiles.class);
    static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");
    static final Set<PosixFilePermission> DIRECTORY = PosixFilePermissions.fromString("rwx------");
    private static final int STICKY_BIT = 01000;

    private PrivateFiles() {}

    /** Attributes that create a file 0600 (empty where POSIX permissions are not supported). */
    public static FileAttribute<?>[] fileAttributes(Path directory) {
        return posix(directory) ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(FILE)} : new FileAttribute<?>[0];
    }

    /** Creates the directory (and missing parents) 0700, or tightens it to 0700 when it exists. */
    public static void ownDirectory(Path directory) throws IOException {
        createDirectory(directory);
        restrict(directory, DIRECTORY);
    }

    /**
     * Creates the directory 0700 when it is missing; an existing one is tightened to 0700 unless it is a
     * shared directory (sticky bit, as /tmp): a file put in such a place by the operator keeps its
     * directory as it is, and a warning says so.
     */
    public static void parentDirectory(Path directory) throws IOException {
        if (!Files.exists(directory)) {
            createDirectory(directory);
            return;
        }
        if (!posix(directory)) return;
        Object mode = Files.getAttribute(directory, "unix:mode");
        if (mode instanceof Integer bits && (bits & STICKY_BIT) != 0) {
            log.atWarn().setMessage("a secret-bearing file lives in a shared directory; its directory is left as it is")
                    .addKeyValue("directory", directory.toAbsolutePath().toString()).log();
            return;
        }
        restrict(directory, DIRECTORY);
    }

    /** Creates the file 0600 when it is missing, or tightens it to 0600. */
    public static void ownFile(Path file) throws IOException {
        Path directory = file.toAbsolutePath().getParent();
        try {
            Files.createFile(file, fileAttributes(directory));
        } catch (FileAlreadyExistsException exists) {
            // tightened below
        }
        restrict(file, FILE);
    }

    /** Tightens an existing file to 0600; a missing one is left missing. */
    public static void restrictIfPresent(Path file) throws IOException {
        if (Files.exists(file)) restrict(file, FILE);
    }

    private static void createDirectory(Path directory) throws IOException {
        Path absolute = directory.toAbsolutePath();
        if (Files.isDirectory(absolute)) return;
        Path parent = absolute.getParent();
        if (parent != null && !Files.exists(parent)) createDirectory(parent);
        try {
            if (posix(parent)) Files.createDirectory(absolute, PosixFilePermissions.asFileAttribute(DIRECTORY));
            else Files.createDirectory(absolute);
        } catch (FileAlreadyExistsException raced) {
            // another thread or process made it; it is tightened by the caller when it is ours
        }
    }

    private static void restrict(Path path, Set<PosixFilePermission> permissions) throws IOException {
        if (!posix(path)) return;
        if (!Files.getPosixFilePermissions(path).equals(permissions)) {
            Files.setPosixFilePermissions(path, permissions);
            log.atInfo().setMessage("tightened the permissions of a secret-bearing path")
                    .addKeyValue("path", path.toAbsolutePath().toString())
                    .addKeyValue("mode", PosixFilePermissions.toString(permissions)).log();
        }
    }

    private static boolean posix(Path path) {
        return path != null && Files.getFileAttributeView(path, PosixFileAttributeView.class) != null;
    }
}
