package dev.berth.manager.controller;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.api.NamespaceLifecycle;
import dev.berth.manager.api.ObjectService;
import dev.berth.manager.api.ResourcePath;
import dev.berth.manager.api.ResourceType;
import dev.berth.manager.store.AlreadyExistsException;
import dev.berth.manager.store.ObjectStore;
import dev.berth.manager.store.StoredObject;
import dev.berth.protocol.KueueApi;
import dev.berth.protocol.Labels;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The namespaces a manager keeps at start, before the controller recovers: kube-apiserver's system
 * namespaces ({@code default}, {@code kube-system}, {@code kube-public}, {@code kube-node-lease}),
 * Kueue's {@code kueue-system} (where MultiKueue's kubeconfig Secrets live, as on a Kueue management
 * cluster), and a
 * Namespace object for every namespace that stored objects live in without one. Stores written before
 * namespaces were enforced held objects in namespaces never created (team-a, say); recovery keeps them
 * all and creates their namespaces rather than refuse them. A stored Namespace without its name label
 * or phase gets them. After recovery, a namespace whose termination a crash interrupted is finished.
 */
final class NamespaceBootstrap {
    private static final Logger log = LoggerFactory.getLogger(NamespaceBootstrap.class);

    private NamespaceBootstrap() {}

    static void ensureNamespaces(ObjectStore store, Iterable<ResourceType> types) {
        Set<String> needed = new TreeSet<>(NamespaceLifecycle.SYSTEM_NAMESPACES);
        needed.add(KueueApi.CONFIG_NAMESPACE);
        for (ResourceType type : types) {
            if (!type.namespaced()) continue;
            for (StoredObject object : store.list(type.resource(), null)) needed.add(object.key().namespace());
        }
        needed.remove("");
        for (String namespace : needed) {
            Optional<StoredObject> stored = store.get(NamespaceLifecycle.key(namespace));
            if (stored.isEmpty()) create(store, namespace);
            else upgrade(store, stored.get());
        }
    }

    /** Completes the termination of every namespace marked for deletion, through the API's delete path. */
    static void finishTerminations(ObjectStore store, ObjectService service) {
        for (StoredObject namespace : store.list(Resources.NAMESPACES.resource(), null)) {
            if (!namespace.object().path("metadata").has("deletionTimestamp")) continue;
            log.atInfo().addKeyValue("namespace", namespace.key().name()).log("finishing an interrupted namespace termination");
            service.delete(ResourcePath.collection(Resources.NAMESPACES, "v1", "").named(namespace.key().name()));
        }
    }

    private static void create(ObjectStore store, String namespace) {
        ObjectNode object = JsonNodeFactory.instance.objectNode();
        object.put("apiVersion", "v1");
        object.put("kind", Resources.NAMESPACES.kind());
        object.putObject("metadata").put("name", namespace);
        NamespaceHooks.canonicalize(object);
        NamespaceHooks.requireKubernetesFinalizer(object);
        object.putObject("status").put("phase", NamespaceLifecycle.PHASE_ACTIVE);
        try {
            store.create(NamespaceLifecycle.key(namespace), object);
            log.atInfo().addKeyValue("namespace", namespace).log("created a namespace that stored objects or the system need");
        } catch (AlreadyExistsException raced) {
            // another writer made it
        }
    }

    private static void upgrade(ObjectStore store, StoredObject stored) {
        ObjectNode object = stored.object();
        String name = stored.key().name();
        StoredObject current = stored;
        if (!name.equals(object.path("metadata").path("labels").path(Labels.NAMESPACE_NAME).asText(null))) {
            NamespaceHooks.canonicalize(object);
            current = store.replace(stored.key(), object, Long.toString(stored.resourceVersion()));
        }
        if (object.path("status").path("phase").asText("").isEmpty()) {
            boolean deleting = object.path("metadata").has("deletionTimestamp");
            ObjectNode status = JsonNodeFactory.instance.objectNode()
                    .put("phase", deleting ? NamespaceLifecycle.PHASE_TERMINATING : NamespaceLifecycle.PHASE_ACTIVE);
            store.replaceStatus(stored.key(), status, Long.toString(current.resourceVersion()));
        }
    }
}
