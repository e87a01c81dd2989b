package dev.berth.system;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A kubeconfig that points kubectl at the manager. */
final class KubeconfigFile {
    private KubeconfigFile() {}

    static Path write(Path file, String serverUrl) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(file, """
                apiVersion: v1
                kind: Config
                clusters:
                - name: berth
                  cluster:
                    server: %s
                contexts:
                - name: berth
                  context:
                    cluster: berth
                    user: berth-admin
                current-context: berth
                users:
                - name: berth-admin
                  user: {}
                """.formatted(serverUrl));
        return file;
    }
}
