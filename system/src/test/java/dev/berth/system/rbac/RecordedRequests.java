package dev.berth.system.rbac;

import dev.berth.virtualcluster.ApiRequest;
import dev.berth.virtualcluster.VirtualClusterProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The API requests the virtual clusters of this test run recorded ({@link VirtualClusterProcess#REQUEST_LOG_DIR_PROPERTY}).
 * Logs older than this JVM are a previous run's and are ignored.
 */
record RecordedRequests(Path dir, Set<ApiRequest> requests, int logs) {

    static Optional<Path> configuredDir() {
        return Optional.ofNullable(System.getProperty(VirtualClusterProcess.REQUEST_LOG_DIR_PROPERTY)).filter(s -> !s.isBlank()).map(Path::of);
    }

    static RecordedRequests ofThisRun(Path dir) {
        long jvmStart = ManagementFactory.getRuntimeMXBean().getStartTime();
        Set<ApiRequest> requests = new TreeSet<>(Comparator.comparing(ApiRequest::toLine));
        int logs = 0;
        if (!Files.isDirectory(dir)) return new RecordedRequests(dir, requests, 0);
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".tsv")).toList()) {
                if (Files.getLastModifiedTime(file).toMillis() < jvmStart) continue;
                logs++;
                for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                    if (!line.isBlank()) requests.add(ApiRequest.fromLine(line));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new RecordedRequests(dir, requests, logs);
    }

    List<ApiRequest> by(String user) {
        return requests.stream().filter(r -> r.user().equals(user)).toList();
    }
}
