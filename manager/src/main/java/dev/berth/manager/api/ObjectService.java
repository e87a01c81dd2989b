package dev.berth.manager.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.api.ObjectHooks.Operation;
import dev.berth.manager.model.LabelSelector;
import dev.berth.manager.objects.ApiVersionConverter;
import dev.berth.manager.objects.InvalidObjectException;
import dev.berth.manager.store.AlreadyExistsException;
import dev.berth.manager.store.ConflictException;
import dev.berth.manager.store.DryRunObjectStore;
import dev.berth.manager.store.NotFoundException;
import dev.berth.manager.store.ObjectStore;
import dev.berth.manager.store.StoredObject;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Kubernetes-style object operations, independent of HTTP: checks a request against its path,
 * runs the kind's hooks, writes the store and shapes the answer for the requested version.
 * Not thread-safe by design: the caller confines it to one state thread, because the hooks feed a
 * single-threaded scheduler. Refusals are thrown as {@link ApiException}.
 */
public final class ObjectService {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String NAME_SUFFIX_ALPHABET = "bcdfghjklmnpqrstvwxz2456789";

    private final ObjectStore store;
    private final ResourceRegistry registry;
    private final SecureRandom random = new SecureRandom();
    private final boolean dryRun;
    private final CreationGate creationGate;
    private final ListPager pager;
    private final Clock clock;

    public ObjectService(ObjectStore store, ResourceRegistry registry) {
        this(store, registry, CreationGate.NONE);
    }

    /** As above, asking {@code creationGate} before every create (object-count limits). */
    public ObjectService(ObjectStore store, ResourceRegistry registry, CreationGate creationGate) {
        this(store, registry, creationGate, Clock.systemUTC());
    }

    /** As above, with the clock that stamps deletionTimestamp on held, foreground and namespace deletes. */
    public ObjectService(ObjectStore store, ResourceRegistry registry, CreationGate creationGate, Clock clock) {
        this(store, registry, false, creationGate, new ListPager(ListSnapshots.defaults()), clock);
    }

    private ObjectService(ObjectStore store, ResourceRegistry registry, boolean dryRun, CreationGate creationGate, ListPager pager,
                          Clock clock) {
        this.clock = clock;
        this.store = store;
        this.registry = registry;
        this.dryRun = dryRun;
        this.creationGate = creationGate;
        this.pager = pager;
    }

    /**
     * The same operations with {@code dryRun=All}: validated and admitted as usual, answered as they
     * would be stored, but nothing is written and no hook learns of them.
     */
    public ObjectService dryRun() {
        return new ObjectService(new DryRunObjectStore(store), registry, true, creationGate, pager, clock);
    }

    private ObjectHooks hooks(ResourceType type) {
        ObjectHooks hooks = registry.hooks(type);
        return dryRun ? new DryRunHooks(hooks) : hooks;
    }

    private void requireReadable(ResourceType type, String name) {
        if (!registry.hooks(type).readable()) {
            throw ApiException.forbidden(type, name, type.qualifiedName() + " cannot be read back through the Berth API");
        }
    }

    public ResourceRegistry registry() {
        return registry;
    }

    public long revision() {
        return store.revision();
    }

    /** The store written through (API groups sync it once per group: {@link GroupedStateWork}). */
    ObjectStore store() {
        return store;
    }

    public Outcome create(ResourcePath collection, ObjectNode body) {
        ResourceType type = collection.type();
        try {
            checkKind(collection, body);
            ObjectNode metadata = BodyIdentity.metadata(body);
            assignName(metadata);
            BodyIdentity.checkNamespace(collection, metadata);
            String name = metadata.path("name").asText("");
            if (name.isEmpty()) {
                throw ApiException.of(InvalidObjectException.invalid(type.kind(), "",
                        List.of(dev.berth.manager.objects.FieldCause.required("metadata.name"))), type, "");
            }
            creationGate.beforeCreate(type, collection.namespace(), name);
            if (type.hasStatus()) body.remove("status");
            // The API server gives the object its uid before the kind's create strategy runs (a Job's
            // generated selector names it); a uid the client sent is replaced.
            metadata.put("uid", java.util.UUID.randomUUID().toString());
            ResourcePath path = collection.named(name);
            ObjectHooks hooks = hooks(type);
            ObjectNode admitted = admit(hooks, body, Optional.empty(), Operation.CREATE, path);
            List<String> warnings = hooks.warnings(admitted, Optional.empty(), Operation.CREATE);
            StoredSizeLimit.check(admitted, type, name);
            StoredObject stored = store.create(path.key(), admitted);
            hooks.stored(stored);
            return new Outcome(reply(stored, collection), warnings);
        } catch (AlreadyExistsException e) {
            throw ApiException.alreadyExists(type, e.key().name());
        }
    }

    public ObjectNode get(ResourcePath path) {
        requireReadable(path.type(), path.name());
        return shaped(existing(path), path);
    }

    /** The objects of the path's collection whose labels match the selector, as a {@code <Kind>List}. */
    public ObjectNode list(ResourcePath collection, String labelSelector) {
        return list(collection, labelSelector, null);
    }

    /** As {@link #list(ResourcePath, String)}, also filtered by a field selector. */
    public ObjectNode list(ResourcePath collection, String labelSelector, String fieldSelector) {
        return list(collection, ListOptions.selectors(labelSelector, fieldSelector));
    }

    /**
     * One page of the collection as a {@code <Kind>List}: filtered by the selectors, cut by limit and
     * continue into consistent pages, read at the resourceVersion the options ask for ({@link ListPager}).
     */
    ObjectNode list(ResourcePath collection, ListOptions options) {
        ResourceType type = collection.type();
        FieldSelector fields = FieldSelector.parse(options.fieldSelector(), type);
        LabelSelector selector = LabelSelectorParser.parse(options.labelSelector());
        requireReadable(type, null);
        String namespace = type.namespaced() ? collection.namespace() : null;
        return pager.page(store, type.resource(), namespace, options, stored -> {
            ObjectNode object = shaped(stored, collection);
            return selector.matches(labels(object)) && fields.matches(object) ? Optional.of(object) : Optional.empty();
        }).asList(type.kind() + "List", collection.apiVersion());
    }

    public Outcome replace(ResourcePath path, ObjectNode body) {
        checkKind(path, body);
        BodyIdentity.checkName(path, body);
        BodyIdentity.checkNamespace(path, BodyIdentity.metadata(body));
        StoredObject existing = existing(path);
        ObjectHooks hooks = hooks(path.type());
        ObjectNode admitted = admit(hooks, body, Optional.of(existing), Operation.UPDATE, path);
        List<String> warnings = hooks.warnings(admitted, Optional.of(existing), Operation.UPDATE);
        StoredSizeLimit.check(admitted, path.type(), path.name());
        StoredObject stored = write(path, () -> store.replace(path.key(), admitted, resourceVersion(body)));
        hooks.stored(stored);
        if (NamespaceLifecycle.isNamespaces(path.type()) && !dryRun) new NamespaceTermination(store, registry, this::hooks,
                clock).finishIfReleased(path.type(), stored);
        return new Outcome(reply(stored, path), warnings);
    }

    /** RFC 7386 merge patch of the whole object; a metadata.resourceVersion in the patch is a precondition. */
    public Outcome mergePatch(ResourcePath path, ObjectNode patch) {
        ObjectNode merged = asObject(JsonMergePatch.apply(existingForPatch(path), patch));
        return replace(path, merged);
    }

    /** Deletes with the default options: Background propagation to the object's dependents. */
    public Outcome delete(ResourcePath path) {
        return delete(path, DeleteOptions.DEFAULT);
    }

    /**
     * Deletes as the DeleteOptions say: preconditions (409 when they do not hold, nothing deleted),
     * dry run, and propagation to dependents by ownerReference (see {@link CascadingDelete}).
     */
    Outcome delete(ResourcePath path, DeleteOptions options) {
        if (options.dryRun() && !dryRun) return dryRun().delete(path, options);
        NamespaceLifecycle.checkDeletable(path.type(), path.name());
        StoredObject existing = existing(path);
        options.checkPreconditions(path, existing.object());
        String holding = hooks(path.type()).finalizerHoldingDeletion(existing);
        if (holding != null) {
            StoredObject marked = write(path, () -> DeletionHold.mark(store, existing, holding, clock));
            hooks(path.type()).stored(marked); // the object is terminating now (a ClusterQueue admits nothing new)
            return new Outcome(shaped(marked, path), List.of());
        }
        StoredObject deleted = write(path, () -> NamespaceLifecycle.isNamespaces(path.type())
                ? new NamespaceTermination(store, registry, this::hooks, clock).terminate(path.type(), existing, options.propagation(), !dryRun)
                : new CascadingDelete(store, registry, this::hooks, clock).delete(path.type(), existing, options.propagation()));
        return new Outcome(shaped(deleted, path), List.of());
    }

    public ObjectNode getStatus(ResourcePath path) {
        requireStatus(path);
        return get(path);
    }

    /** Replaces the status from a whole object's {@code status}; everything else in the body is ignored. */
    public Outcome replaceStatus(ResourcePath path, ObjectNode body) {
        requireStatus(path);
        checkKind(path, body);
        BodyIdentity.checkName(path, body);
        BodyIdentity.checkNamespace(path, BodyIdentity.metadata(body));
        StoredObject existing = existing(path);
        JsonNode status = path.kueueV1beta1() ? ApiVersionConverter.statusToV1beta2(body) : body.get("status");
        ObjectNode incoming = status instanceof ObjectNode object ? object : NODES.objectNode();
        ObjectHooks hooks = hooks(path.type());
        ObjectNode admitted;
        try {
            admitted = hooks.admitStatus(incoming, existing);
        } catch (InvalidObjectException e) {
            throw ApiException.of(e, path.type(), path.name());
        }
        StoredSizeLimit.check(StoredShape.withStatusForSize(existing, admitted), path.type(), path.name());
        StoredObject stored = write(path, () -> store.replaceStatus(path.key(), admitted, resourceVersion(body)));
        hooks.statusStored(stored);
        return new Outcome(reply(stored, path), List.of());
    }

    /** RFC 7386 merge patch applied to the object; only the resulting status is written. */
    public Outcome mergePatchStatus(ResourcePath path, ObjectNode patch) {
        requireStatus(path);
        ObjectNode merged = asObject(JsonMergePatch.apply(existingForPatch(path), patch));
        return replaceStatus(path, merged);
    }

    /**
     * Creates each object of a manifest file in order, routed by apiVersion and kind; a namespaced
     * object without a namespace goes to "default". Stops at the first refusal, whose message then
     * names the document; objects created before it stay.
     */
    public List<Outcome> createAll(List<ObjectNode> objects) {
        List<Outcome> outcomes = new ArrayList<>();
        for (int i = 0; i < objects.size(); i++) {
            ObjectNode object = objects.get(i);
            String prefix = "document " + (i + 1) + " (" + object.path("kind").asText("?") + " \""
                    + object.path("metadata").path("name").asText("") + "\"): ";
            try {
                outcomes.add(create(collectionFor(object), object));
            } catch (ApiException e) {
                throw e.withMessagePrefix(prefix);
            } catch (InvalidObjectException e) {
                throw ApiException.of(e, null, null).withMessagePrefix(prefix);
            }
        }
        return outcomes;
    }

    private ResourcePath collectionFor(ObjectNode object) {
        String apiVersion = object.path("apiVersion").asText("");
        String kind = object.path("kind").asText("");
        ResourceType type = registry.byApiVersionAndKind(apiVersion, kind).orElseThrow(() -> unknownKind(apiVersion, kind));
        String version = ResourceRegistry.GroupVersion.parse(apiVersion).version();
        String namespace = type.namespaced() ? object.path("metadata").path("namespace").asText("default") : "";
        return ResourcePath.collection(type, version, namespace);
    }

    /**
     * A body without kind or apiVersion takes them from the URL, as kube-apiserver defaults them from
     * the request's group, version and kind (Python's and JavaScript's model objects often omit them);
     * a body that names another kind or group than the URL is a 400.
     */
    private void checkKind(ResourcePath path, ObjectNode body) {
        if (body.path("kind").asText("").isEmpty()) body.put("kind", path.type().kind());
        if (body.path("apiVersion").asText("").isEmpty()) body.put("apiVersion", path.apiVersion());
        String apiVersion = body.path("apiVersion").asText("");
        String kind = body.path("kind").asText("");
        ResourceType type = registry.byApiVersionAndKind(apiVersion, kind).orElseThrow(() -> unknownKind(apiVersion, kind));
        if (!type.equals(path.type())) {
            throw ApiException.badRequest("the API version in the data (" + apiVersion + ") and kind (" + kind
                    + ") do not match the requested resource " + path.type().qualifiedName());
        }
    }

    private static ApiException unknownKind(String apiVersion, String kind) {
        return ApiException.badRequest("no kind \"" + kind + "\" is registered for version \"" + apiVersion + "\"");
    }

    private void assignName(ObjectNode metadata) {
        if (!metadata.path("name").asText("").isEmpty()) return;
        String prefix = metadata.path("generateName").asText("");
        if (prefix.isEmpty()) return;
        StringBuilder name = new StringBuilder(prefix);
        for (int i = 0; i < 5; i++) name.append(NAME_SUFFIX_ALPHABET.charAt(random.nextInt(NAME_SUFFIX_ALPHABET.length())));
        metadata.put("name", name.toString());
    }

    private static ObjectNode admit(ObjectHooks hooks, ObjectNode body, Optional<StoredObject> existing,
                                    Operation op, ResourcePath path) {
        try {
            return hooks.admit(body, existing, op);
        } catch (InvalidObjectException e) {
            throw ApiException.of(e, path.type(), path.name());
        }
    }

    private StoredObject existing(ResourcePath path) {
        return store.get(path.key()).orElseThrow(() -> ApiException.notFound(path.type(), path.name()));
    }

    /** The object as a patch starts from: shaped for the path's version, without its resourceVersion. */
    ObjectNode forPatch(ResourcePath path) {
        ObjectNode current = shaped(existing(path), path);
        BodyIdentity.metadata(current).remove("resourceVersion");
        return current;
    }

    /**
     * The document a patch applies to: the object as a GET returns it, resourceVersion, uid and
     * managedFields included, so a JSON patch can {@code test} them. The patched result keeps the
     * current resourceVersion unless the patch changed it, and a changed one is a precondition (409).
     */
    ObjectNode patchTarget(ResourcePath path) {
        return shaped(existing(path), path);
    }

    /** Whether the object exists. */
    boolean exists(ResourcePath path) {
        return store.get(path.key()).isPresent();
    }

    /** A stored object shaped for the path's version (for watch events). */
    ObjectNode shape(StoredObject stored, ResourcePath path) {
        return shaped(stored, path);
    }

    private ObjectNode existingForPatch(ResourcePath path) {
        ObjectNode current = existing(path).object();
        BodyIdentity.metadata(current).remove("resourceVersion");
        return current;
    }

    private void requireStatus(ResourcePath path) {
        if (!path.type().hasStatus()) throw ApiException.noSuchResource();
    }

    private static StoredObject write(ResourcePath path, java.util.function.Supplier<StoredObject> write) {
        try {
            return write.get();
        } catch (NotFoundException e) {
            throw ApiException.notFound(path.type(), path.name());
        } catch (ConflictException e) {
            throw ApiException.conflict(path.type(), path.name());
        }
    }

    /** The stored object as the request's version names it. */
    private ObjectNode shaped(StoredObject stored, ResourcePath path) {
        return StoredShape.mutable(stored, path, registry.hooks(path.type()).readable());
    }

    /** As {@link #shaped}, for a write's reply: shares the stored version's read-only tree ({@link StoredShape#forReply}). */
    private ObjectNode reply(StoredObject stored, ResourcePath path) {
        return StoredShape.forReply(stored, path, registry.hooks(path.type()).readable());
    }

    private static String resourceVersion(ObjectNode body) {
        String version = BodyIdentity.metadata(body).path("resourceVersion").asText("");
        return version.isEmpty() ? null : version;
    }

    private static Map<String, String> labels(ObjectNode object) {
        Map<String, String> labels = new HashMap<>();
        for (Map.Entry<String, JsonNode> label : object.path("metadata").path("labels").properties()) {
            labels.put(label.getKey(), label.getValue().asText());
        }
        return labels;
    }

    private static ObjectNode asObject(JsonNode node) {
        if (node instanceof ObjectNode object) return object;
        throw ApiException.badRequest("a merge patch must be a JSON object");
    }
}
