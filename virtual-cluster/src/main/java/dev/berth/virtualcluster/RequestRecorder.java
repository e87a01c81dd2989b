package dev.berth.virtualcluster;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.zjsonpatch.JsonPatchException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * The CRUD mock's dispatcher, recording each distinct kind of request it serves ({@link ApiRequest},
 * tagged with the {@link ClientIdentity} of its bearer token) as one line of a file. The mock server
 * has no RBAC; this log is what the system tests hold the shipped Roles and ClusterRoles against.
 * Distinct lines only, so the file stays small however long the cluster runs. It also answers kubectl's
 * discovery requests ({@link ClusterDiscovery}), which the CRUD mock alone cannot.
 *
 * <p>It also counts every request by user, verb and resource (not by object), and rewrites those counts every
 * {@link #COUNTS_EVERY} to a file next to the log ({@code .counts}, tab-separated, most frequent first): what a
 * dispatched job costs a worker's API, request by request, for the benchmarks.
 */
final class RequestRecorder extends KubernetesCrudDispatcher {
    static final String UNKNOWN_USER = "unknown";

    private final String clusterName;
    private final Path file;
    private final Set<ApiRequest> seen = ConcurrentHashMap.newKeySet();
    static final Duration COUNTS_EVERY = Duration.ofSeconds(5);
    private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();
    /** Held by every write, so that a delete's preconditions and the delete are one step. */
    private final Object writes = new Object();

    RequestRecorder(String clusterName, Path file) {
        this.clusterName = clusterName;
        this.file = file;
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ScheduledExecutorService writer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "request-counts-" + clusterName);
            thread.setDaemon(true);
            return thread;
        });
        writer.scheduleWithFixedDelay(this::writeCounts, COUNTS_EVERY.toMillis(), COUNTS_EVERY.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        ApiRequest apiRequest = ApiRequest.of(user(request.getHeader("Authorization")), request.getMethod(), request.getPath());
        counts.computeIfAbsent(countKey(apiRequest, request.getPath()), k -> new LongAdder()).increment();
        record(apiRequest);
        if ("GET".equals(request.getMethod()) && ClusterDiscovery.isDiscovery(request.getPath())) return discovery(request.getPath());
        MockResponse response;
        try {
            response = "GET".equals(request.getMethod()) ? super.dispatch(request) : write(request, apiRequest);
        } catch (JsonPatchException notApplied) {
            // the CRUD mock throws on a JSON Patch whose test fails and never answers; kube-apiserver answers 422
            return patchNotApplied(notApplied.getMessage());
        }
        // a watch's end must not hold the event loop every other request of this cluster is served on
        if (response.getWebSocketListener() != null) response.withWebSocketUpgrade(new WatchListenerOffTheLoop(response.getWebSocketListener()));
        // the CRUD mock sends JSON without saying so; kubectl then reads it as the protobuf it asked for first
        if (response.header("Content-Type") == null && !request.getPath().contains("watch=")) response.setHeader("Content-Type", "application/json");
        return response;
    }

    /**
     * A write, one at a time: a delete with preconditions is checked against the stored object and carried out with no
     * create or update in between ({@link DeletePreconditions}); kube-apiserver answers 409 when one fails.
     */
    private MockResponse write(RecordedRequest request, ApiRequest apiRequest) {
        synchronized (writes) {
            if ("DELETE".equals(request.getMethod()) && !apiRequest.name().isEmpty()) {
                Optional<JsonNode> preconditions = DeletePreconditions.of(request.getUtf8Body());
                if (preconditions.isPresent()) {
                    String path = request.getPath();
                    MockResponse stored = handleGet(path.contains("?") ? path.substring(0, path.indexOf('?')) : path);
                    if (stored.code() != 200) return stored;
                    String resource = apiRequest.resource() + (apiRequest.apiGroup().isEmpty() ? "" : "." + apiRequest.apiGroup())
                            + " \"" + apiRequest.name() + "\"";
                    Optional<String> conflict = DeletePreconditions.conflict(preconditions.get(), stored.getBody().readUtf8(), resource);
                    if (conflict.isPresent()) return status(409, "Conflict", conflict.get());
                }
            }
            return super.dispatch(request);
        }
    }

    private static MockResponse status(int code, String reason, String message) {
        String escaped = message.replace("\\", "\\\\").replace("\"", "\\\"");
        return new MockResponse().setResponseCode(code).setHeader("Content-Type", "application/json")
                .setBody("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":\"" + reason + "\",\"code\":"
                        + code + ",\"message\":\"" + escaped + "\"}");
    }

    /** kube-apiserver's answer to a JSON Patch it cannot apply to the object (a failed test, a missing path). */
    static MockResponse patchNotApplied(String why) {
        return status(422, "Invalid", String.valueOf(why));
    }

    /** A discovery document, from the CRDs stored now; 404 for a group and version nothing serves. */
    private MockResponse discovery(String path) {
        String crds = handleGet(ClusterDiscovery.CRDS_PATH).getBody().readUtf8();
        return ClusterDiscovery.document(path, crds)
                .map(body -> new MockResponse().setResponseCode(200).setHeader("Content-Type", "application/json").setBody(body))
                .orElseGet(() -> status(404, "NotFound", "the server could not find the requested resource"));
    }

    private String user(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) return UNKNOWN_USER;
        return ClientIdentity.ofToken(clusterName, authorization.substring(7).trim()).map(ClientIdentity::user).orElse(UNKNOWN_USER);
    }

    private void record(ApiRequest request) {
        if (!seen.add(request)) return;
        synchronized (this) {
            try {
                Files.writeString(file, request.toLine() + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            } catch (IOException e) {
                seen.remove(request);
                throw new UncheckedIOException("cannot record an API request in " + file, e);
            }
        }
    }

    private static String countKey(ApiRequest request, String path) {
        String verb = path.contains("watch=true") || path.contains("watch=1") ? "watch" : request.verb();
        return request.user() + "\t" + verb + "\t" + (request.isResourceRequest()
                ? request.apiGroup() + "/" + request.resource() + (request.subresource().isEmpty() ? "" : "/" + request.subresource())
                : request.nonResourcePath());
    }

    /** Rewrites the counts file whole (a temporary file moved over it), most frequent first. */
    private void writeCounts() {
        StringBuilder text = new StringBuilder("count\tuser\tverb\tresource\n");
        counts.entrySet().stream().sorted((a, b) -> Long.compare(b.getValue().sum(), a.getValue().sum()))
                .forEach(entry -> text.append(entry.getValue().sum()).append('\t').append(entry.getKey()).append('\n'));
        Path target = file.resolveSibling(file.getFileName() + ".counts");
        try {
            Path temporary = Files.writeString(file.resolveSibling(file.getFileName() + ".counts.tmp"), text, StandardCharsets.UTF_8);
            Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | RuntimeException e) {
            // counts are a diagnostic: a full disk must not stop the cluster
        }
    }
}
