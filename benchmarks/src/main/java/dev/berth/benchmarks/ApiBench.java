package dev.berth.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.manager.api.ObjectCountLimits;
import dev.berth.manager.config.KueueConfigurationFile;
import dev.berth.manager.config.ManagerSettings;
import dev.berth.manager.security.QuickstartCredentials;
import dev.berth.manager.security.SecurityOptions;
import dev.berth.manager.store.FileObjectStore;
import dev.berth.system.BerthSystem;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A manager as the quickstart runs it, for the benchmarks that drive it through its API: HTTPS with
 * the quickstart's credentials (the admin's bearer token), RBAC, the audit log and the embedded
 * {@link FileObjectStore}, in this JVM, with no worker clusters (admission only, nothing is dispatched).
 * Its queues come from manifest folders. The admin's request rate limit is raised so that a refused
 * create measures the API, not the limiter; every other setting is the quickstart's.
 */
final class ApiBench implements AutoCloseable {
    static final SecurityOptions.RateLimit UNLIMITED = new SecurityOptions.RateLimit(1_000_000, 1_000_000);
    private static final ObjectMapper JSON = new ObjectMapper();

    final Path home;
    final Path data;
    final BerthSystem system;
    final String baseUrl;
    final String token;
    /** Creates and status patches; HTTP/1.1, one connection per request in flight. */
    final HttpClient http;
    /** The watch's own client, so its long request never takes a connection the others wait for. */
    final HttpClient watchHttp;

    private ApiBench(Path home, Path data, BerthSystem system, String token) throws Exception {
        this.home = home;
        this.data = data;
        this.system = system;
        this.baseUrl = system.apiUrl();
        this.token = token;
        Path certificate = home.resolve("security").resolve("tls.crt");
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(CreateLoad.trusting(certificate))
                .connectTimeout(Duration.ofSeconds(10)).build();
        this.watchHttp = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(CreateLoad.trusting(certificate))
                .connectTimeout(Duration.ofSeconds(10)).build();
    }

    /**
     * Starts the manager over a fresh temporary home with the given manifest folders, finished
     * workloads retained for {@code retainFinishedOrNull} (null: forever), and {@code workloadsPerNamespace}
     * as the per-namespace Workload limit.
     */
    static ApiBench start(String label, List<Path> manifests, Duration retainFinishedOrNull, int workloadsPerNamespace) throws Exception {
        Path home = Files.createTempDirectory("berth-" + label);
        Path data = Files.createDirectories(home.resolve("data"));
        ManagerSettings settings = KueueConfigurationFile.settings(null, new ManagerSettings.Flags(false, retainFinishedOrNull,
                batchWindow(), Map.of()));
        QuickstartCredentials credentials = QuickstartCredentials.prepare(home.resolve("security"), Clock.systemUTC());
        SecurityOptions quickstart = credentials.options();
        SecurityOptions security = quickstart.withAdminRate(UNLIMITED);
        BerthSystem system = BerthSystem.start(home.resolve("manager"), List.of(), FileObjectStore.open(data, Clock.systemUTC()),
                settings.scheduler(), settings.dispatch(), "127.0.0.1", 0, manifests, security, settings.integrations());
        system.manager().objectCountLimits(ObjectCountLimits.parse("workloads.kueue.x-k8s.io=" + workloadsPerNamespace));
        return new ApiBench(home, data, system, adminToken(home.resolve("security").resolve("tokens.csv")));
    }

    /** The manager's scheduling batch window: the in-process replay's ({@code -Dberth.replay.batchMillis}, else the default). */
    static Duration batchWindow() {
        return Duration.ofMillis(KueuePerfReplay.BATCH_MILLIS);
    }

    HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(baseUrl + path)).header("authorization", "Bearer " + token)
                .header("accept", "application/json");
    }

    /** The answer's status code, or -1 when the request failed (connection, timeout). */
    int post(String path, String json) {
        return send(request(path).timeout(Duration.ofSeconds(120)).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build());
    }

    int jsonPatch(String path, String patch) {
        return send(request(path).timeout(Duration.ofSeconds(120)).header("content-type", WorkloadJson.JSON_PATCH)
                .method("PATCH", HttpRequest.BodyPublishers.ofString(patch)).build());
    }

    JsonNode get(String path) throws IOException, InterruptedException {
        HttpResponse<byte[]> answer = http.send(request(path).timeout(Duration.ofSeconds(120)).GET().build(),
                HttpResponse.BodyHandlers.ofByteArray());
        if (answer.statusCode() != 200) {
            throw new IOException("GET " + path + " answered " + answer.statusCode() + ": " + new String(answer.body()));
        }
        return JSON.readTree(answer.body());
    }

    /** The admin may set a bare spec.priority; one workload per class shows whether the manager kept it. */
    String priorityCheck(String namespace, List<WorkloadClass> classes) {
        StringBuilder out = new StringBuilder("spec.priority kept:");
        for (WorkloadClass workloadClass : classes) {
            try {
                int stored = get(WorkloadJson.collectionPath(namespace) + "/" + workloadClass.name() + "-0").path("spec").path("priority").asInt(-1);
                out.append(String.format(Locale.ROOT, " %s %d (sent %d)%s", workloadClass.name(), stored, workloadClass.priority(),
                        stored == workloadClass.priority() ? "" : " MISMATCH"));
            } catch (Exception e) {
                out.append(" ").append(workloadClass.name()).append(" not readable (").append(e.getMessage()).append(")");
            }
        }
        return out.toString();
    }

    /** Opens a watch; the caller reads its lines until the server ends it. */
    HttpResponse<InputStream> watch(String path) throws IOException, InterruptedException {
        return watchHttp.send(request(path).GET().build(), HttpResponse.BodyHandlers.ofInputStream());
    }

    private int send(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        } catch (IOException e) {
            return -1;
        }
    }

    /** Bytes of every file under the store's data directory. */
    long dataBytes() {
        try (Stream<Path> files = Files.walk(data)) {
            return files.filter(Files::isRegularFile).mapToLong(file -> {
                try {
                    return Files.size(file);
                } catch (IOException gone) {
                    return 0; // replaced by a compaction between the walk and the size
                }
            }).sum();
        } catch (IOException | java.io.UncheckedIOException e) {
            return -1;
        }
    }

    @Override
    public void close() {
        system.close();
    }

    /** The admin's token from the quickstart's token file (this run's own, in its temporary home). */
    static String adminToken(Path tokens) throws IOException {
        for (String line : Files.readAllLines(tokens)) {
            String[] fields = line.split(",");
            if (fields.length >= 2 && fields[1].equals(QuickstartCredentials.ADMIN_USER)) return fields[0];
        }
        throw new IllegalStateException("no admin token in " + tokens);
    }
}
