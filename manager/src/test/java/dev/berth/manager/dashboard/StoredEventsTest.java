package dev.berth.manager.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.api.ObjectHooks;
import dev.berth.manager.api.ResourceRegistry;
import dev.berth.manager.api.ResourceType;
import dev.berth.manager.store.MemoryObjectStore;
import dev.berth.manager.store.ObjectKey;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The default event source reads core/v1 Events from the store when the manager serves them, newest first. */
class StoredEventsTest {
    private static final ResourceType EVENTS = new ResourceType("", "v1", "events", "event", "Event", true, List.of("ev"), false);
    private final MemoryObjectStore store = new MemoryObjectStore();

    @Test
    void listsEventsNewestFirstWhenTheResourceIsServed() {
        store.create(new ObjectKey(EVENTS.resource(), "team-a", "a.1"), event("team-a", "QuotaReserved", "2026-01-01T10:00:00Z"));
        store.create(new ObjectKey(EVENTS.resource(), "team-b", "b.1"), event("team-b", "Pending", "2026-01-01T11:00:00Z"));
        store.create(new ObjectKey(EVENTS.resource(), "team-a", "a.2"), event("team-a", "Admitted", "2026-01-01T10:30:00Z"));
        ResourceRegistry registry = ResourceRegistry.builder().add(EVENTS, ObjectHooks.NONE).build();

        List<DashboardEvent> newest = new StoredEvents(store, registry).newest(2);

        assertThat(newest).extracting(DashboardEvent::reason).containsExactly("Pending", "Admitted");
        assertThat(newest.get(0)).isEqualTo(new DashboardEvent("team-b", "Normal", "Pending", "Pending happened",
                "Workload", "job-1", 2, "2026-01-01T11:00:00Z"));
    }

    @Test
    void isEmptyWhenTheManagerDoesNotServeEvents() {
        store.create(new ObjectKey(EVENTS.resource(), "team-a", "a.1"), event("team-a", "QuotaReserved", "2026-01-01T10:00:00Z"));
        assertThat(new StoredEvents(store, ResourceRegistry.builder().build()).newest(10)).isEmpty();
    }

    private static ObjectNode event(String namespace, String reason, String lastTimestamp) {
        ObjectNode event = JsonNodeFactory.instance.objectNode().put("apiVersion", "v1").put("kind", "Event");
        event.putObject("metadata").put("namespace", namespace);
        event.putObject("involvedObject").put("kind", "Workload").put("name", "job-1").put("namespace", namespace);
        return event.put("reason", reason).put("message", reason + " happened").put("type", "Normal")
                .put("count", 2).put("lastTimestamp", lastTimestamp);
    }
}
