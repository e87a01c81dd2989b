package dev.berth.manager.dashboard;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.manager.api.ResourceRegistry;
import dev.berth.manager.api.ResourceType;
import dev.berth.manager.store.ObjectStore;
import dev.berth.manager.store.StoredObject;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The default event source: the core/v1 Events kept in the object store, if the manager serves the
 * {@code events} resource at all; none otherwise. Newest first by lastTimestamp (then eventTime,
 * then creation), so a repeated event moves back to the top.
 */
public final class StoredEvents implements DashboardEventSource {
    private final ObjectStore store;
    private final ResourceRegistry registry;

    public StoredEvents(ObjectStore store, ResourceRegistry registry) {
        this.store = store;
        this.registry = registry;
    }

    @Override
    public List<DashboardEvent> newest(int limit) {
        Optional<ResourceType> events = registry.byPlural("", "events");
        if (events.isEmpty()) return List.of();
        return store.list(events.get().resource(), null).stream()
                .map(StoredObject::object)
                .sorted(Comparator.comparing(StoredEvents::seen).reversed())
                .limit(limit)
                .map(StoredEvents::event)
                .toList();
    }

    private static String seen(JsonNode event) {
        for (String field : List.of("lastTimestamp", "eventTime", "firstTimestamp")) {
            String value = event.path(field).asText("");
            if (!value.isEmpty()) return value;
        }
        return event.path("metadata").path("creationTimestamp").asText("");
    }

    private static DashboardEvent event(JsonNode event) {
        JsonNode involved = event.path("involvedObject");
        String namespace = event.path("metadata").path("namespace").asText(null);
        String seen = seen(event);
        return new DashboardEvent(namespace, event.path("type").asText(null), event.path("reason").asText(null),
                event.path("message").asText(null), involved.path("kind").asText(null), involved.path("name").asText(null),
                event.path("count").asInt(1), seen.isEmpty() ? null : seen);
    }
}
