package dev.berth.manager.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.store.NotFoundException;
import dev.berth.manager.store.ObjectKey;
import dev.berth.manager.store.ObjectStore;
import dev.berth.manager.store.StoredObject;
import dev.berth.protocol.Events;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;

/**
 * Records core/v1 Events in the object store, like client-go's event recorder and the API server
 * together: an event repeating the same object, reason and message bumps {@code count} and
 * {@code lastTimestamp} of the stored one instead of adding another; too many similar events (same object, type and
 * reason, different messages) become one combined event ({@link SimilarEvents}); each involved object keeps its
 * newest {@link EventOptions#maxPerObject()} events; events not seen for {@link EventOptions#ttl()}
 * are deleted; beyond {@link EventOptions#maxPerNamespace()} in a namespace or
 * {@link EventOptions#maxTotal()} in all, the least recently seen are deleted first, so no stream of
 * distinct events (one per workload, say) grows the store without bound. Confined to the state thread.
 */
public final class EventRecorder {
    public static final String RESOURCE = "/events";
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final ObjectStore store;
    private final Clock clock;
    private final EventOptions options;
    /** Dedup key (uid, reason, message) to event key. */
    private final Map<String, ObjectKey> byContent = new HashMap<>();
    /** Per involved object uid, its events oldest first. */
    private final Map<String, Deque<ObjectKey>> byObject = new HashMap<>();
    /** Every event by the time it was last seen, least recent first. */
    private final LinkedHashMap<ObjectKey, Instant> lastSeen = new LinkedHashMap<>();
    private final Map<ObjectKey, String> contentOf = new HashMap<>();
    /** Per namespace, its events least recently seen first. */
    private final Map<String, LinkedHashSet<ObjectKey>> byNamespace = new HashMap<>();
    private final SimilarEvents similar;
    private long sequence;
    private static final long EVENTS_PER_SECOND_NAMED = 1_000_000;

    public EventRecorder(ObjectStore store, Clock clock, EventOptions options) {
        this.store = store;
        this.clock = clock;
        this.options = options;
        this.similar = new SimilarEvents(options.similarBeforeCombining(), options.similarWindow());
        // each event read once (a comparator reading the stored object parsed it at every comparison), and only read
        store.list(RESOURCE, null).stream()
                .map(stored -> Map.entry(stored.key(), (JsonNode) stored.readOnlyObject()))
                .sorted(Map.Entry.comparingByValue(java.util.Comparator.comparing((JsonNode e) -> e.path("lastTimestamp").asText())))
                .forEach(event -> index(event.getKey(), event.getValue(), lastTimestamp(event.getValue())));
    }

    /** The object an event is about. */
    public record InvolvedObject(String apiVersion, String kind, String namespace, String name, String uid) {}

    public void record(InvolvedObject involved, WorkloadEvent event) {
        Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
        expire(now);
        if (similar.combine(involved.uid(), event.type(), event.reason(), event.message(), now)) {
            event = new WorkloadEvent(event.type(), event.reason(), SimilarEvents.COMBINED_PREFIX + event.message());
        }
        String content = contentKey(involved.uid(), event.reason(), event.message());
        ObjectKey existing = byContent.get(content);
        if (existing != null && repeat(existing, now, event.message())) return;
        String namespace = involved.namespace() == null || involved.namespace().isEmpty() ? "default" : involved.namespace();
        // unique per second up to a million events (a wrap at a thousand gave a busy pass's second event for an object the name of its first)
        ObjectKey key = new ObjectKey(RESOURCE, namespace, involved.name() + "." + Long.toHexString(now.toEpochMilli() * EVENTS_PER_SECOND_NAMED
                + (sequence++ % EVENTS_PER_SECOND_NAMED)));
        ObjectNode object = event(involved, event, key, now);
        store.create(key, object);
        index(key, object, now); // the instant its lastTimestamp was written from, not parsed back
        Deque<ObjectKey> events = byObject.get(involved.uid());
        while (events.size() > options.maxPerObject()) delete(events.peekFirst());
        LinkedHashSet<ObjectKey> inNamespace = byNamespace.get(namespace);
        while (inNamespace.size() > options.maxPerNamespace()) delete(inNamespace.iterator().next());
        while (lastSeen.size() > options.maxTotal()) delete(lastSeen.keySet().iterator().next());
    }

    /** Deletes the events not seen within the TTL. */
    public void expire(Instant now) {
        Instant oldest = now.minus(options.ttl());
        Iterator<Map.Entry<ObjectKey, Instant>> entries = lastSeen.entrySet().iterator();
        while (entries.hasNext()) {
            Map.Entry<ObjectKey, Instant> entry = entries.next();
            if (!entry.getValue().isBefore(oldest)) break;
            ObjectKey key = entry.getKey();
            entries.remove();
            forget(key);
            deleteStored(key);
        }
    }

    int size() {
        return lastSeen.size();
    }

    int sizeIn(String namespace) {
        LinkedHashSet<ObjectKey> inNamespace = byNamespace.get(namespace);
        return inNamespace == null ? 0 : inNamespace.size();
    }

    /** One event per object and reason for all its combined messages; one per message otherwise. */
    private static String contentKey(String uid, String reason, String message) {
        return uid + "\u0000" + reason + "\u0000" + (SimilarEvents.isCombined(message) ? SimilarEvents.COMBINED_PREFIX : message);
    }

    private boolean repeat(ObjectKey key, Instant now, String message) {
        StoredObject stored = store.get(key).orElse(null);
        if (stored == null) return false;
        ObjectNode object = stored.readOnlyObject().deepCopy();
        object.put("count", object.path("count").asInt(1) + 1);
        object.put("lastTimestamp", now.toString());
        object.put("message", message); // a combined event tells the newest of its messages, as client-go's does
        store.replace(key, object, null);
        lastSeen.remove(key);
        lastSeen.put(key, now);
        LinkedHashSet<ObjectKey> inNamespace = byNamespace.get(key.namespace());
        if (inNamespace != null && inNamespace.remove(key)) inNamespace.add(key);
        return true;
    }

    private ObjectNode event(InvolvedObject involved, WorkloadEvent event, ObjectKey key, Instant now) {
        ObjectNode object = NODES.objectNode().put("apiVersion", "v1").put("kind", Events.KIND);
        object.putObject("metadata").put("name", key.name()).put("namespace", key.namespace());
        ObjectNode ref = object.putObject("involvedObject").put("apiVersion", involved.apiVersion()).put("kind", involved.kind());
        if (involved.namespace() != null && !involved.namespace().isEmpty()) ref.put("namespace", involved.namespace());
        ref.put("name", involved.name()).put("uid", involved.uid());
        object.put("reason", event.reason()).put("message", event.message()).put("type", event.type());
        object.putObject("source").put("component", Events.COMPONENT);
        object.put("firstTimestamp", now.toString()).put("lastTimestamp", now.toString()).put("count", 1);
        object.put("reportingComponent", Events.COMPONENT).put("reportingInstance", "berth-manager");
        return object;
    }

    private void index(ObjectKey key, JsonNode object, Instant seen) {
        String uid = object.path("involvedObject").path("uid").asText();
        String content = contentKey(uid, object.path("reason").asText(), object.path("message").asText());
        byContent.put(content, key);
        contentOf.put(key, content);
        byObject.computeIfAbsent(uid, u -> new ArrayDeque<>()).addLast(key);
        byNamespace.computeIfAbsent(key.namespace(), n -> new LinkedHashSet<>()).add(key);
        lastSeen.put(key, seen);
    }

    private Instant lastTimestamp(JsonNode object) {
        try {
            return Instant.parse(object.path("lastTimestamp").asText());
        } catch (RuntimeException e) {
            return clock.instant();
        }
    }

    private void delete(ObjectKey key) {
        lastSeen.remove(key);
        forget(key);
        deleteStored(key);
    }

    private void forget(ObjectKey key) {
        LinkedHashSet<ObjectKey> inNamespace = byNamespace.get(key.namespace());
        if (inNamespace != null && inNamespace.remove(key) && inNamespace.isEmpty()) byNamespace.remove(key.namespace());
        String content = contentOf.remove(key);
        if (content == null) return;
        byContent.remove(content, key);
        String uid = content.substring(0, content.indexOf('\u0000'));
        Deque<ObjectKey> events = byObject.get(uid);
        if (events != null) {
            events.remove(key);
            if (events.isEmpty()) byObject.remove(uid);
        }
    }

    private void deleteStored(ObjectKey key) {
        try {
            store.delete(key);
        } catch (NotFoundException gone) {
            // deleted through the API already
        }
    }
}
