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
 * Events are bounded in number (issue 12, class 5), not only per object and by age: a stream of
 * distinct events, one per workload, keeps at most maxPerNamespace in a namespace and maxTotal in all,
 * dropping the least recently seen first. Without the bounds, 1,000 workloads leave 1,000 events
 * and more for an hour.
 */
class EventRetentionBoundTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T00:00:00Z"));
    private final MemoryObjectStore store = new MemoryObjectStore(clock);

    private static EventRecorder.InvolvedObject workload(String namespace, int i) {
        return new EventRecorder.InvolvedObject("kueue.x-k8s.io/v1beta2", "Workload", namespace, "w" + i, namespace + "-uid-" + i);
    }

    private List<ObjectNode> stored(String namespace) {
        return store.list(EventRecorder.RESOURCE, namespace).stream().map(StoredObject::object).toList();
    }

    @Test
    void aNamespaceKeepsItsNewestEventsUpToItsBound() {
        EventRecorder recorder = new EventRecorder(store, clock, new EventOptions(50, Duration.ofHours(1), 100, 10_000));
        for (int i = 0; i < 1_000; i++) {
            recorder.record(workload("team-a", i), new WorkloadEvent("Normal", "Created", "workload " + i));
            clock.advance(Duration.ofMillis(10));
        }

        assertThat(stored("team-a")).hasSize(100);
        assertThat(recorder.sizeIn("team-a")).isEqualTo(100);
        assertThat(stored("team-a")).extracting(e -> e.path("message").asText()).contains("workload 999", "workload 900")
                .doesNotContain("workload 899", "workload 0");
    }

    @Test
    void aRepeatedEventCountsAsRecentSoItOutlivesOlderOnes() {
        EventRecorder recorder = new EventRecorder(store, clock, new EventOptions(50, Duration.ofHours(1), 3, 10_000));
        recorder.record(workload("team-a", 0), new WorkloadEvent("Normal", "Created", "first"));
        clock.advance(Duration.ofSeconds(1));
        recorder.record(workload("team-a", 1), new WorkloadEvent("Normal", "Created", "second"));
        clock.advance(Duration.ofSeconds(1));
        recorder.record(workload("team-a", 0), new WorkloadEvent("Normal", "Created", "first"));
        clock.advance(Duration.ofSeconds(1));
        recorder.record(workload("team-a", 2), new WorkloadEvent("Normal", "Created", "third"));
        clock.advance(Duration.ofSeconds(1));
        recorder.record(workload("team-a", 3), new WorkloadEvent("Normal", "Created", "fourth"));

        assertThat(stored("team-a")).extracting(e -> e.path("message").asText()).containsExactlyInAnyOrder("first", "third", "fourth");
    }

    @Test
    void allNamespacesTogetherKeepAtMostTheTotalBoundAndOneNamespaceCannotEvictAnotherBeyondIt() {
        EventRecorder recorder = new EventRecorder(store, clock, new EventOptions(50, Duration.ofHours(1), 300, 500));
        for (int i = 0; i < 200; i++) {
            recorder.record(workload("team-b", i), new WorkloadEvent("Normal", "Created", "b " + i));
            clock.advance(Duration.ofMillis(10));
        }
        for (int i = 0; i < 2_000; i++) {
            recorder.record(workload("team-a", i), new WorkloadEvent("Normal", "Created", "a " + i));
            clock.advance(Duration.ofMillis(10));
        }

        assertThat(store.list(EventRecorder.RESOURCE, null)).hasSize(500);
        assertThat(recorder.size()).isEqualTo(500);
        assertThat(stored("team-a")).hasSize(300);
        assertThat(stored("team-b")).hasSize(200);
    }

    @Test
    void theBoundsHoldAcrossARestart() {
        EventOptions options = new EventOptions(50, Duration.ofHours(1), 10, 100);
        EventRecorder first = new EventRecorder(store, clock, options);
        for (int i = 0; i < 10; i++) first.record(workload("team-a", i), new WorkloadEvent("Normal", "Created", "before " + i));
        clock.advance(Duration.ofSeconds(1));
        EventRecorder second = new EventRecorder(store, clock, options);
        for (int i = 0; i < 5; i++) second.record(workload("team-a", 100 + i), new WorkloadEvent("Normal", "Created", "after " + i));

        assertThat(stored("team-a")).hasSize(10);
        assertThat(stored("team-a")).extracting(e -> e.path("message").asText()).contains("after 0", "after 4").doesNotContain("before 0");
    }
}
