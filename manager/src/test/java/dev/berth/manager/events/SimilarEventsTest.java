package dev.berth.manager.events;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.store.MemoryObjectStore;
import dev.berth.manager.store.StoredObject;
import dev.berth.manager.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Similar events (one object, one type and reason, different messages) combine as client-go's aggregator does: from
 * the tenth distinct message within ten minutes, one "(combined from similar events)" event counts them.
 */
class SimilarEventsTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final EventRecorder.InvolvedObject QUEUE = new EventRecorder.InvolvedObject(
            "kueue.x-k8s.io/v1beta2", "ClusterQueue", "", "team-a-cq", "uid-cq");

    private final MutableClock clock = new MutableClock(T0);
    private final MemoryObjectStore store = new MemoryObjectStore(clock);
    private final EventRecorder recorder = new EventRecorder(store, clock, EventOptions.DEFAULTS);

    private List<ObjectNode> events() {
        return store.list(EventRecorder.RESOURCE, null).stream().map(StoredObject::object).toList();
    }

    private void admitted(int workload) {
        recorder.record(QUEUE, new WorkloadEvent("Normal", "Admitted", "Admitted workload team-a/wl-" + workload));
    }

    @Test
    void fromTheTenthDistinctMessageOneCombinedEventCountsThemAndTellsTheNewest() {
        for (int i = 0; i < 25; i++) {
            admitted(i);
            clock.advance(Duration.ofSeconds(1));
        }

        assertThat(events()).hasSize(10);
        assertThat(events()).filteredOn(e -> !e.path("message").asText().startsWith("(combined"))
                .extracting(e -> e.path("message").asText())
                .containsExactlyInAnyOrder("Admitted workload team-a/wl-0", "Admitted workload team-a/wl-1", "Admitted workload team-a/wl-2",
                        "Admitted workload team-a/wl-3", "Admitted workload team-a/wl-4", "Admitted workload team-a/wl-5",
                        "Admitted workload team-a/wl-6", "Admitted workload team-a/wl-7", "Admitted workload team-a/wl-8");
        ObjectNode combined = events().stream().filter(e -> e.path("message").asText().startsWith("(combined")).findFirst().orElseThrow();
        assertThat(combined.path("message").asText()).isEqualTo("(combined from similar events): Admitted workload team-a/wl-24");
        assertThat(combined.path("count").asInt()).isEqualTo(16);
        assertThat(combined.path("reason").asText()).isEqualTo("Admitted");
        assertThat(combined.path("firstTimestamp").asText()).isEqualTo("2026-01-01T00:00:09Z");
        assertThat(combined.path("lastTimestamp").asText()).isEqualTo("2026-01-01T00:00:24Z");
    }

    @Test
    void anotherReasonOrObjectIsNotSimilar() {
        for (int i = 0; i < 12; i++) admitted(i);
        recorder.record(QUEUE, new WorkloadEvent("Normal", "Preempted", "Preempted workload team-a/wl-0"));
        recorder.record(new EventRecorder.InvolvedObject("kueue.x-k8s.io/v1beta2", "ClusterQueue", "", "team-b-cq", "uid-b"),
                new WorkloadEvent("Normal", "Admitted", "Admitted workload team-b/wl-0"));

        assertThat(events()).extracting(e -> e.path("message").asText())
                .contains("Preempted workload team-a/wl-0", "Admitted workload team-b/wl-0")
                .filteredOn(m -> m.startsWith("(combined")).hasSize(1);
    }

    @Test
    void afterTenQuietMinutesMessagesAreTheirOwnEventsAgainAndTheCombinedOneCountsOnAfterARestart() {
        for (int i = 0; i < 10; i++) admitted(i);
        clock.advance(Duration.ofMinutes(11));
        admitted(100);
        assertThat(events()).extracting(e -> e.path("message").asText()).contains("Admitted workload team-a/wl-100");

        EventRecorder restarted = new EventRecorder(store, clock, EventOptions.DEFAULTS);
        for (int i = 200; i < 210; i++) restarted.record(QUEUE, new WorkloadEvent("Normal", "Admitted", "Admitted workload team-a/wl-" + i));
        assertThat(events()).filteredOn(e -> e.path("message").asText().startsWith("(combined")).singleElement()
                .satisfies(e -> assertThat(e.path("count").asInt()).isEqualTo(2))
                .satisfies(e -> assertThat(e.path("message").asText()).endsWith("wl-209"));
    }
}
