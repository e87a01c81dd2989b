package dev.berth.manager.events;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.core.Condition;
import dev.berth.manager.core.WorkloadStatus;
import dev.berth.manager.model.Admission;
import dev.berth.manager.store.MemoryObjectStore;
import dev.berth.manager.store.StoredObject;
import dev.berth.manager.testing.MutableClock;
import dev.berth.protocol.Conditions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Event recording: Kueue's reasons and messages per transition, dedup by count, bounds per object and by age. */
class EventRecorderTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final EventRecorder.InvolvedObject WL = new EventRecorder.InvolvedObject(
            "kueue.x-k8s.io/v1beta2", "Workload", "team-a", "wl", "uid-1");

    private final MutableClock clock = new MutableClock(T0);
    private final MemoryObjectStore store = new MemoryObjectStore(clock);

    private List<ObjectNode> events() {
        return store.list(EventRecorder.RESOURCE, null).stream().map(StoredObject::object).toList();
    }

    @Test
    void aRepeatedEventBumpsCountAndLastTimestampInsteadOfAddingOne() {
        EventRecorder recorder = new EventRecorder(store, clock, EventOptions.DEFAULTS);
        recorder.record(WL, new WorkloadEvent("Warning", "Pending", "couldn't assign flavors"));
        clock.advance(Duration.ofSeconds(30));
        recorder.record(WL, new WorkloadEvent("Warning", "Pending", "couldn't assign flavors"));
        assertThat(events()).hasSize(1);
        ObjectNode event = events().get(0);
        assertThat(event.path("count").asInt()).isEqualTo(2);
        assertThat(event.path("firstTimestamp").asText()).isEqualTo("2026-01-01T00:00:00Z");
        assertThat(event.path("lastTimestamp").asText()).isEqualTo("2026-01-01T00:00:30Z");
        assertThat(event.at("/involvedObject/uid").asText()).isEqualTo("uid-1");
        assertThat(event.at("/metadata/namespace").asText()).isEqualTo("team-a");
    }

    @Test
    void twoEventsForAnObjectInABusySecondBothGetStored() {
        EventRecorder recorder = new EventRecorder(store, clock, new EventOptions(10, Duration.ofMinutes(10)));
        EventRecorder.InvolvedObject other = new EventRecorder.InvolvedObject("kueue.x-k8s.io/v1beta2", "Workload", "team-b", "other", "uid-2");
        recorder.record(WL, new WorkloadEvent("Normal", "QuotaReserved", "first"));
        for (int i = 0; i < 999; i++) recorder.record(other, new WorkloadEvent("Normal", "Pending", "event " + i));
        recorder.record(WL, new WorkloadEvent("Normal", "Admitted", "second, a thousand events later in the same second"));

        assertThat(events()).filteredOn(e -> e.at("/involvedObject/uid").asText().equals("uid-1"))
                .extracting(e -> e.path("reason").asText()).containsExactlyInAnyOrder("QuotaReserved", "Admitted");
    }

    @Test
    void keepsTheNewestEventsPerObjectAndExpiresOldOnes() {
        EventRecorder recorder = new EventRecorder(store, clock, new EventOptions(3, Duration.ofMinutes(10)));
        for (int i = 0; i < 5; i++) {
            recorder.record(WL, new WorkloadEvent("Warning", "Pending", "message " + i));
            clock.advance(Duration.ofSeconds(1));
        }
        assertThat(events()).extracting(e -> e.path("message").asText()).containsExactlyInAnyOrder("message 2", "message 3", "message 4");

        clock.advance(Duration.ofMinutes(11));
        recorder.expire(clock.instant());
        assertThat(events()).isEmpty();

        recorder.record(WL, new WorkloadEvent("Warning", "Pending", "message 4"));
        assertThat(events()).singleElement().satisfies(e -> assertThat(e.path("count").asInt()).isEqualTo(1));
    }

    @Test
    void anIndexRebuiltAfterARestartStillDeduplicates() {
        new EventRecorder(store, clock, EventOptions.DEFAULTS).record(WL, new WorkloadEvent("Normal", "Admitted", "a"));
        new EventRecorder(store, clock, EventOptions.DEFAULTS).record(WL, new WorkloadEvent("Normal", "Admitted", "a"));
        assertThat(events()).singleElement().satisfies(e -> assertThat(e.path("count").asInt()).isEqualTo(2));
    }

    @Test
    void transitionsBecomeKueueEvents() throws Exception {
        Admission admission = new Admission("team-a-cq", List.of());
        WorkloadStatus reserved = new WorkloadStatus(List.of(
                new Condition(Conditions.QUOTA_RESERVED, true, "QuotaReserved", "Quota reserved in ClusterQueue team-a-cq, wait time since queued was 3s", T0),
                new Condition(Conditions.ADMITTED, true, "Admitted", "The workload is admitted", T0.plusSeconds(2))), admission, List.of(), 0);
        assertThat(WorkloadTransitions.between(new ObjectMapper().createObjectNode(), reserved, T0.plusSeconds(2)))
                .containsExactly(new WorkloadEvent("Normal", "QuotaReserved", "Quota reserved in ClusterQueue team-a-cq, wait time since queued was 3s"),
                        new WorkloadEvent("Normal", "Admitted", "Admitted by ClusterQueue team-a-cq, wait time since reservation was 2s"));

        String preemptedMessage = "Preempted to accommodate a workload (team-a/big) due to prioritization in the ClusterQueue";
        WorkloadStatus preempted = new WorkloadStatus(List.of(
                new Condition(Conditions.EVICTED, true, "Preempted", preemptedMessage, T0),
                new Condition(Conditions.PREEMPTED, true, "InClusterQueue", preemptedMessage, T0),
                new Condition(Conditions.QUOTA_RESERVED, false, "Pending", preemptedMessage, T0)), null, List.of(), 1);
        var previous = new ObjectMapper().readTree("{\"conditions\":[{\"type\":\"QuotaReserved\",\"status\":\"True\"}]}");
        assertThat(WorkloadTransitions.between(previous, preempted, T0))
                .containsExactly(new WorkloadEvent("Normal", "Preempted", preemptedMessage));

        WorkloadStatus pending = new WorkloadStatus(List.of(
                new Condition(Conditions.QUOTA_RESERVED, false, "Pending", "couldn't assign flavors to pod set main", T0)), null, List.of(), 0);
        assertThat(WorkloadTransitions.between(new ObjectMapper().createObjectNode(), pending, T0))
                .containsExactly(new WorkloadEvent("Warning", "Pending", "couldn't assign flavors to pod set main"));
        var samePending = new ObjectMapper().readTree(
                "{\"conditions\":[{\"type\":\"QuotaReserved\",\"status\":\"False\",\"message\":\"couldn't assign flavors to pod set main\"}]}");
        assertThat(WorkloadTransitions.between(samePending, pending, T0)).isEmpty();
    }
}
