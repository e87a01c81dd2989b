package dev.berth.manager.metrics;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real Prometheus, started as a subprocess on 127.0.0.1 with its own config and storage under a
 * temporary directory, scraping one target every second and evaluating the given rule file.
 */
final class PrometheusProcess implements AutoCloseable {
    private final Process process;
    private final int port;
    final Path log;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    PrometheusProcess(Path binary, Path workDir, String target, Path rules) throws IOException {
        port = freePort();
        Path config = workDir.resolve("prometheus.yml");
        Files.writeString(config, String.join("\n",
                "global:",
                "  scrape_interval: 1s",
                "  scrape_timeout: 1s",
                "  evaluation_interval: 1s",
                "rule_files:",
                "  - " + rules.toAbsolutePath(),
                "scrape_configs:",
                "  - job_name: berth-manager",
                "    metrics_path: /metrics",
                "    static_configs:",
                "      - targets: ['" + target + "']",
                ""));
        log = workDir.resolve("prometheus.log");
        process = new ProcessBuilder(List.of(binary.toString(),
                "--config.file=" + config.toAbsolutePath(),
                "--storage.tsdb.path=" + Files.createDirectories(workDir.resolve("data")).toAbsolutePath(),
                "--web.listen-address=127.0.0.1:" + port,
                "--log.level=warn"))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    boolean alive() {
        return process.isAlive();
    }

    /** GET a path of Prometheus's HTTP API; null while it does not answer. */
    HttpResponse<String> get(String path) {
        try {
            return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                    .timeout(Duration.ofSeconds(5)).GET().build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
