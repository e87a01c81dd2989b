package dev.berth.virtualcluster;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A virtual cluster in its own JVM, for tests and the quickstart. Its output goes to
 * {@code <dir>/cluster.log}. {@link #kill()} is a crash (SIGKILL), {@link #stop()} a clean shutdown.
 */
public final class VirtualClusterProcess implements AutoCloseable {
    public static final String LOG_FILE = "cluster.log";
    /**
     * A directory that, when this system property names one, receives every cluster's request log
     * ({@link RequestRecorder}) as {@code <name>-<random>.tsv}, so that a test run's requests outlive the
     * clusters' temporary directories. Unset: each cluster logs into its own directory.
     */
    public static final String REQUEST_LOG_DIR_PROPERTY = "berth.virtualcluster.requestLogDir";
    /** A JVM start, bounded generously: on a 2-core machine shared by many builds it has taken over a minute. */
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(180);

    private final String name;
    private final Path dir;
    private final Process process;
    private final int port;
    private final Path kubeconfig;

    private VirtualClusterProcess(String name, Path dir, Process process, int port, Path kubeconfig) {
        this.name = name;
        this.dir = dir;
        this.process = process;
        this.port = port;
        this.kubeconfig = kubeconfig;
    }

    public static VirtualClusterProcess start(String name, String profileAndAutoscaling, Path dir, boolean spot) {
        return start(name, profileAndAutoscaling, dir, spot, List.of());
    }

    /**
     * Only the cluster's API: its simulator (the job controller, scheduler and kubelet, every one of which lists
     * all its objects each pass) runs once an hour, so a benchmark that creates suspended Jobs on it measures
     * the API alone, and the Jobs piling up do not slow it down or take CPU from whatever else the machine runs.
     */
    public static VirtualClusterProcess startApiOnly(String name, String profile, Path dir) {
        return start(name, profile, dir, false, List.of("--period-ms", Long.toString(java.time.Duration.ofHours(1).toMillis())));
    }

    private static VirtualClusterProcess start(String name, String profileAndAutoscaling, Path dir, boolean spot, List<String> extra) {
        // "<profile>|<autoscaling>" makes an autoscaling virtual cluster, e.g. "h100:1x8,cpu:1|h100:max=3,delay=1,fail=1"
        String[] profileParts = profileAndAutoscaling.split("\\|", 2);
        String profile = profileParts[0];
        ClusterProfile.parse(profile);
        if (profileParts.length == 2) ProvisionerProfile.parse(profileParts[1]);
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.add("-Xmx256m");
        command.add("-XX:+UseSerialGC");
        command.add("-XX:TieredStopAtLevel=1");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(VirtualClusterMain.class.getName());
        command.addAll(List.of("--name", name, "--dir", dir.toAbsolutePath().toString(), "--profile", profile));
        if (spot) {
            command.add("--spot");
        }
        if (profileParts.length == 2) command.addAll(List.of("--autoscaling", profileParts[1]));
        command.addAll(extra);
        String requestLogDir = System.getProperty(REQUEST_LOG_DIR_PROPERTY);
        if (requestLogDir != null && !requestLogDir.isBlank()) {
            command.add("--request-log");
            command.add(Path.of(requestLogDir, name + "-" + java.util.UUID.randomUUID() + ".tsv").toAbsolutePath().toString());
        }
        try {
            Files.createDirectories(dir);
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            CompletableFuture<String> readyLine = new CompletableFuture<>();
            Thread pump = new Thread(() -> pumpOutput(process, dir.resolve(LOG_FILE), readyLine), "virtual-cluster-" + name + "-output");
            pump.setDaemon(true);
            pump.start();
            String ready = awaitReady(process, readyLine, name, dir);
            String[] parts = ready.split(" ", 3);
            return new VirtualClusterProcess(name, dir, process, Integer.parseInt(parts[1]), Path.of(parts[2]));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String awaitReady(Process process, CompletableFuture<String> readyLine, String name, Path dir) {
        try {
            return readyLine.get(READY_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            process.destroyForcibly();
            throw new IllegalStateException("virtual cluster " + name + " did not become ready; see " + dir.resolve(LOG_FILE), e);
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting virtual cluster " + name, e);
        }
    }

    /** Copies the child's output to the log file and completes {@code readyLine} with the READY line. */
    private static void pumpOutput(Process process, Path logFile, CompletableFuture<String> readyLine) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
             BufferedWriter log = Files.newBufferedWriter(logFile, StandardCharsets.UTF_8,
                 StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
            String line;
            while ((line = in.readLine()) != null) {
                log.write(line);
                log.newLine();
                log.flush();
                if (line.startsWith("READY ")) {
                    readyLine.complete(line);
                }
            }
        } catch (IOException e) {
            readyLine.completeExceptionally(e);
        }
        readyLine.completeExceptionally(new IllegalStateException("the process ended its output before READY"));
    }

    public String name() {
        return name;
    }

    public int port() {
        return port;
    }

    /** The admin kubeconfig: for tests and operators, not for Berth's own components. */
    public Path kubeconfig() {
        return kubeconfig;
    }

    /** The kubeconfig of one identity; its requests are recorded under that identity's name. */
    public Path kubeconfig(ClientIdentity identity) {
        return kubeconfig.resolveSibling(identity.kubeconfigFile());
    }

    public Path dir() {
        return dir;
    }

    public Path podLifetimesFile() {
        return dir.resolve(ClusterSimulator.POD_LIFETIMES_FILE);
    }

    /** The pod intervals recorded so far (also readable after the process is gone). */
    public List<PodInterval> podLifetimes() {
        return PodLifetimeRecord.read(podLifetimesFile());
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** A crash: the process dies at once, without shutting anything down. */
    public void kill() {
        process.destroyForcibly();
        waitForExit();
    }

    /** A clean shutdown: closing stdin makes the cluster stop its simulator and server and exit. */
    public void stop() {
        try {
            process.getOutputStream().close();
        } catch (IOException ignored) {
            // already closed: the process is stopping anyway
        }
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        waitForExit();
    }

    private void waitForExit() {
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            stop();
        }
    }

    @Override
    public String toString() {
        return "virtual cluster " + name + " on 127.0.0.1:" + port;
    }
}
