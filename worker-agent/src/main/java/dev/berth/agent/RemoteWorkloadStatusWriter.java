package dev.berth.agent;

import dev.berth.protocol.crd.RemoteWorkload;
import dev.berth.protocol.crd.RemoteWorkloadStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Optional;

/** Writes a RemoteWorkload's status through the status subresource, only when it changed. */
public final class RemoteWorkloadStatusWriter {
    private final KubernetesClient client;

    public RemoteWorkloadStatusWriter(KubernetesClient client) {
        this.client = client;
    }

    /**
     * Writes the status, sets it on {@code rw} and returns the object as written (with its new resourceVersion); empty
     * when the status did not change. The write carries rw's resourceVersion: a conflict (the object changed since it
     * was read) surfaces as an exception and the next pass retries.
     */
    public Optional<RemoteWorkload> write(RemoteWorkload rw, RemoteWorkloadStatus status) {
        var serialization = client.getKubernetesSerialization();
        if (rw.getStatus() != null && serialization.asJson(rw.getStatus()).equals(serialization.asJson(status))) return Optional.empty();
        rw.setStatus(status);
        return Optional.of(client.resources(RemoteWorkload.class).inNamespace(rw.getMetadata().getNamespace()).resource(rw).updateStatus());
    }
}
