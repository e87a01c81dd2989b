package dev.berth.manager.clusters;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.protocol.crd.RemoteWorkload;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;

/**
 * The common case of a lease renewal or a commit as one JSON Patch (RFC 6902) whose {@code test} operations make the
 * API server refuse it unless the copy is as the manager left it (this attempt, our fencing epoch): no read first, as
 * fabric8's {@code edit} makes. A refused or failed patch changes nothing, and the caller falls back to read and patch.
 */
final class AttemptPatches {
    private static final ObjectMapper JSON = new ObjectMapper();

    private AttemptPatches() {}

    /** spec.leaseRenewTime set, provided spec.fencingEpoch is {@code epoch}. */
    static String renewalAtEpoch(String renewTime, long epoch) {
        ArrayNode patch = JSON.createArrayNode();
        test(patch, "/spec/fencingEpoch").put("value", epoch);
        add(patch, "/spec/leaseRenewTime").put("value", renewTime);
        return patch.toString();
    }

    /** spec.reservation false and spec.leaseRenewTime set, provided the copy is attempt {@code attemptId} at {@code epoch}. */
    static String commitAtEpoch(String attemptId, String renewTime, long epoch) {
        ArrayNode patch = JSON.createArrayNode();
        test(patch, "/spec/attemptId").put("value", attemptId);
        test(patch, "/spec/fencingEpoch").put("value", epoch);
        add(patch, "/spec/reservation").put("value", false);
        add(patch, "/spec/leaseRenewTime").put("value", renewTime);
        return patch.toString();
    }

    /**
     * True when the patch was applied. False when the server refused it (a test did not hold) or could not apply it:
     * the caller reads and decides. A copy that is gone (404) is thrown, as the read would find it gone too. The
     * request names the copy through a stub holding only its name and namespace: fabric8 reads the object from the
     * server first when it has none, and that read is what this patch saves.
     */
    static boolean applied(KubernetesClient client, String namespace, String name, String jsonPatch) {
        RemoteWorkload stub = new RemoteWorkload();
        stub.setMetadata(new ObjectMetaBuilder().withNamespace(namespace).withName(name).build());
        try {
            client.resources(RemoteWorkload.class).inNamespace(namespace).resource(stub).patch(PatchContext.of(PatchType.JSON), jsonPatch);
            return true;
        } catch (KubernetesClientException refused) {
            if (refused.getCode() == 404) throw refused;
            return false;
        }
    }

    private static ObjectNode test(ArrayNode patch, String path) {
        return patch.addObject().put("op", "test").put("path", path);
    }

    private static ObjectNode add(ArrayNode patch, String path) {
        return patch.addObject().put("op", "add").put("path", path);
    }
}
