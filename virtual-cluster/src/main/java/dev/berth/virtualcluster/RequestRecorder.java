package dev.berth.virtualcluster;

import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The CRUD mock's dispatcher, recording each distinct kind of request it serves ({@link ApiRequest},
 * tagged with the {@link ClientIdentity} of its bearer token) as one line of a file. The mock server
 * has no RBAC; this log is what the system tests hold the shipped Roles and ClusterRoles against.
 * Distinct lines only, so the file stays small however long the cluster runs. It also answers kubectl's
 * discovery requests ({@link ClusterDiscovery}), which the CRUD mock alone cannot.
 */
final class RequestRecorder extends KubernetesCrudDispatcher {
    static final String UNKNOWN_USER = "unknown";

    private final String clusterName;
    private final Path file;
    private final Set<ApiRequest> seen = ConcurrentHashMap.newKeySet();

    RequestRecorder(String clusterName, Path file) {
        this.clusterName = clusterName;
        this.file = file;
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        record(ApiRequest.of(user(request.getHeader("Authorization")), request.getMethod(), request.getPath()));
        if ("GET".equals(request.getMethod()) && ClusterDiscovery.isDiscovery(request.getPath())) return discovery(request.getPath());
        MockResponse response = super.dispatch(request);
        // the CRUD mock sends JSON without saying so; kubectl then reads it as the protobuf it asked for first
        if (response.header("Content-Type") == null && !request.getPath().contains("watch=")) response.setHeader("Content-Type", "application/json");
        return response;
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
}
