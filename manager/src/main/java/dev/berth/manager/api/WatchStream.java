package dev.berth.manager.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.model.LabelSelector;
import dev.berth.manager.store.StoreChange;
import io.vertx.core.Context;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One open watch: a chunked HTTP response of {@code {"type":...,"object":...}} lines. Changes are
 * offered from the state thread into a bounded queue and written on the connection's event loop, so
 * a slow client never holds up the state thread; a client that falls too far behind (queue full or
 * the socket's write queue full) gets a 410 Expired ERROR event and the stream ends, and re-lists.
 */
final class WatchStream {
    static final int MAX_PENDING = 10_000;
    static final String INITIAL_EVENTS_END = "k8s.io/initial-events-end";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ResourcePath collection;
    private final LabelSelector labels;
    private final FieldSelector fields;
    private final ApiRequest request;
    private final ObjectService service;
    private final Clock clock;
    private final HttpServerResponse response;
    private final Context context;
    /** A change to send, or (change null) a BOOKMARK at resourceVersion. */
    private record Pending(StoreChange change, long resourceVersion, boolean initialEventsEnd) {}

    private final ArrayDeque<Pending> pending = new ArrayDeque<>();
    private boolean scheduled;
    private boolean overflowed;
    private boolean closed;
    private Runnable onClose = () -> { };

    WatchStream(ResourcePath collection, ApiRequest request, ObjectService service, Clock clock,
                HttpServerResponse response, Context context) {
        this.collection = collection;
        this.labels = LabelSelectorParser.parse(request.param("labelSelector"));
        this.fields = FieldSelector.parse(request.param("fieldSelector"), collection.type());
        this.request = request;
        this.service = service;
        this.clock = clock;
        this.response = response;
        this.context = context;
    }

    void onClose(Runnable action) {
        this.onClose = action;
    }

    String resource() {
        return collection.type().resource();
    }

    /** The namespace watched, or null for all (and for cluster-scoped kinds). */
    String namespaceOrNull() {
        return collection.type().namespaced() ? collection.namespace() : null;
    }

    /** Whether a change belongs to this watch's collection. */
    boolean concerns(StoreChange change) {
        if (!change.object().key().resource().equals(collection.type().resource())) return false;
        String namespace = collection.type().namespaced() ? collection.namespace() : null;
        return namespace == null || namespace.equals(change.object().key().namespace());
    }

    /** From any thread; never blocks. */
    void offer(StoreChange change) {
        if (concerns(change)) enqueue(new Pending(change, change.object().resourceVersion(), false));
    }

    /**
     * A BOOKMARK carrying only kind, apiVersion and metadata.resourceVersion; initialEventsEnd adds
     * the {@code k8s.io/initial-events-end} annotation that ends a watch-list's initial events.
     * Sent only to watches that allow bookmarks.
     */
    void offerBookmark(long resourceVersion, boolean initialEventsEnd) {
        if (request.flag("allowWatchBookmarks")) enqueue(new Pending(null, resourceVersion, initialEventsEnd));
    }

    private void enqueue(Pending item) {
        synchronized (this) {
            if (closed || overflowed) return;
            if (pending.size() >= MAX_PENDING) {
                overflowed = true;
            } else {
                pending.add(item);
            }
            if (scheduled) return;
            scheduled = true;
        }
        context.runOnContext(v -> drain());
    }

    void offerAll(List<StoreChange> changes) {
        changes.forEach(this::offer);
    }

    /** Ends the watch with an ERROR event carrying a metav1 Status (410 Expired for a stale resourceVersion). */
    void fail(ApiException error) {
        context.runOnContext(v -> {
            write(event("ERROR", StatusBody.of(error)));
            close();
        });
    }

    void close() {
        synchronized (this) {
            if (closed) return;
            closed = true;
        }
        onClose.run();
        if (!response.ended() && !response.closed()) response.end();
    }

    private void drain() {
        List<Pending> changes;
        boolean expired;
        synchronized (this) {
            changes = List.copyOf(pending);
            pending.clear();
            scheduled = false;
            expired = overflowed;
        }
        for (Pending item : changes) {
            if (item.change() == null) {
                if (!write(event("BOOKMARK", bookmark(item)))) {
                    expired = true;
                    break;
                }
                continue;
            }
            StoreChange change = item.change();
            ObjectNode object = service.shape(change.object(), collection);
            if (!labels.matches(labelsOf(object)) || !fields.matches(object)) continue;
            JsonNode rendered = request.wantsTable()
                    ? TablePrinter.table(collection.type(), object, request.param("includeObject"), clock.instant()) : object;
            if (!write(event(change.type().name(), rendered))) {
                expired = true;
                break;
            }
        }
        if (expired) {
            write(event("ERROR", StatusBody.of(new ApiException(410, "Expired",
                    "the watch fell too far behind; list again and watch from the new resourceVersion", null, null, null, List.of()))));
            close();
        }
    }

    private boolean write(ObjectNode event) {
        if (response.ended() || response.closed()) return false;
        try {
            response.write(Buffer.buffer(JSON.writeValueAsBytes(event)).appendString("\n"));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        return !response.writeQueueFull();
    }

    private ObjectNode bookmark(Pending item) {
        ObjectNode object = JsonNodeFactory.instance.objectNode()
                .put("kind", collection.type().kind()).put("apiVersion", collection.apiVersion());
        ObjectNode metadata = object.putObject("metadata").put("resourceVersion", Long.toString(item.resourceVersion()));
        if (item.initialEventsEnd()) metadata.putObject("annotations").put(INITIAL_EVENTS_END, "true");
        return object;
    }

    private static ObjectNode event(String type, JsonNode object) {
        ObjectNode event = JsonNodeFactory.instance.objectNode().put("type", type);
        event.set("object", object);
        return event;
    }

    private static Map<String, String> labelsOf(JsonNode object) {
        Map<String, String> labels = new HashMap<>();
        object.path("metadata").path("labels").properties().forEach(e -> labels.put(e.getKey(), e.getValue().asText()));
        return labels;
    }
}
