package dev.berth.manager.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.objects.FieldCause;
import dev.berth.manager.store.ObjectKey;
import dev.berth.manager.store.ObjectStore;
import dev.berth.manager.store.StoredObject;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * kube-apiserver's NamespaceLifecycle admission for the API's writes: a namespaced object may only be
 * created in a namespace that exists (404 {@code namespaces "x" not found}) and is not being
 * terminated (403, reason Forbidden, cause NamespaceTerminating); the namespaces kube-apiserver calls
 * immortal may not be deleted. Only the API path asks it: the manager's own writes (Workloads made for
 * Jobs, Events, statuses) go to the store directly.
 */
public final class NamespaceLifecycle implements CreationGate {
    public static final String PHASE_ACTIVE = "Active";
    public static final String PHASE_TERMINATING = "Terminating";
    /** The finalizer kube-apiserver puts in a Namespace's spec.finalizers; its namespace controller removes it. */
    public static final String KUBERNETES_FINALIZER = "kubernetes";
    /** The namespaces kube-apiserver's bootstrap controller keeps. */
    public static final List<String> SYSTEM_NAMESPACES = List.of("default", "kube-system", "kube-public", "kube-node-lease");
    /** kube-apiserver refuses to delete these (NamespaceLifecycle's immortal namespaces); kube-node-lease is not among them. */
    public static final Set<String> IMMORTAL_NAMESPACES = Set.of("default", "kube-system", "kube-public");

    private final ObjectStore store;

    public NamespaceLifecycle(ObjectStore store) {
        this.store = store;
    }

    /** Whether the type is the core/v1 Namespace. */
    public static boolean isNamespaces(ResourceType type) {
        return type.group().isEmpty() && "namespaces".equals(type.plural());
    }

    /** The store key of a namespace. */
    public static ObjectKey key(String namespace) {
        return new ObjectKey("/namespaces", "", namespace);
    }

    /** Whether a stored Namespace is being terminated: marked for deletion or in phase Terminating. */
    public static boolean terminating(ObjectNode namespace) {
        return namespace.path("metadata").has("deletionTimestamp")
                || PHASE_TERMINATING.equals(namespace.path("status").path("phase").asText(""));
    }

    @Override
    public void beforeCreate(ResourceType type, String namespace, String name) {
        if (!type.namespaced() || namespace == null || namespace.isEmpty()) return;
        Optional<StoredObject> stored = store.get(key(namespace));
        if (stored.isEmpty()) {
            throw new ApiException(404, "NotFound", "namespaces \"" + namespace + "\" not found", namespace, "", "namespaces", List.of());
        }
        if (terminating(stored.get().readOnlyObject())) {
            throw new ApiException(403, "Forbidden", type.qualifiedName() + " \"" + name + "\" is forbidden: unable to create new content in namespace "
                    + namespace + " because it is being terminated", name, type.group(), type.plural(),
                    List.of(new FieldCause("metadata.namespace", "namespace " + namespace + " is being terminated", "NamespaceTerminating")));
        }
    }

    /** @throws ApiException 403 for the namespaces kube-apiserver never deletes */
    static void checkDeletable(ResourceType type, String name) {
        if (isNamespaces(type) && IMMORTAL_NAMESPACES.contains(name)) {
            throw ApiException.forbidden(type, name, "namespaces \"" + name + "\" is forbidden: this namespace may not be deleted");
        }
    }
}
