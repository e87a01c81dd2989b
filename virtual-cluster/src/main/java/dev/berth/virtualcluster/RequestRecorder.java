package dev.berth.virtualcluster;

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
            response = super.dispatch(request);
        } catch (JsonPatchException notApplied) {
            // the CRUD mock throws on a JSON Patch whose test fails and never answers; kube-apiserver answers 422
            return patchNotApplied(notApplied.getMessage());
        }
        // the CRUD mock sends JSON without saying so; kubectl then reads it as the protobuf it asked for first
        if (response.header("Content-Type") == null && !request.getPath().contains("watch=")) response.setHeader("Content-Type", "application/json");
        return response;
    }

    /** kube-apiserver's answer to a JSON Patch it cannot apply to the object (a failed test, a missing path). */
    static MockResponse patchNotApplied(String why) {
        String message = String.valueOf(why).replace("\\", "\\\\").replace("\"", "\\\"");
        return new MockResponse().setResponseCode(422).setHeader("Content-Type", "application/json")
                .setBody("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":\"Invalid\",\"code\":422,"
                        + "\"message\":\"" + message + "\"}");
    }

    /** A discovery document, from the CRDs stored now; 404 for a group and version nothing serves. */
    private MockResponse discovery(String path) {
        String crds = handleGet(ClusterDiscovery.CRDS_PATH).getBody().readUtf8();
        return ClusterDiscovery.document(path, crds)
                .map(body -> new MockResponse().setResponseCode(200).setHeader("Content-Type", "application/json").setBody(body))
                .orElseGet(() -> new MockResponse().setResponseCode(404).setHeader("Content-Type", "application/json")
                        .setBody("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":\"NotFound\",\"code\":404,"
                                + "\"message\":\"the server could not find the requested resource\"}"));
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
