package dev.berth.virtualcluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AttemptOverlapsTest {

    @Test
    void attemptsThatFollowEachOtherAcrossClustersDoNotOverlap(@TempDir Path dir) {
        Path a = dir.resolve("a.jsonl");
        Path b = dir.resolve("b.jsonl");
        try (PodLifetimeRecorder recordA = new PodLifetimeRecorder(a); PodLifetimeRecorder recordB = new PodLifetimeRecorder(b)) {
            recordA.record(event("a", "p1", "u1", "attempt-1", PodLifetimeEvent.STARTED, "Running", 100));
            recordA.record(event("a", "p1", "u1", "attempt-1", PodLifetimeEvent.ENDED, Kubelet.DELETED, 200));
            recordB.record(event("b", "p1", "u2", "attempt-2", PodLifetimeEvent.STARTED, "Running", 200));
            recordB.record(event("b", "p1", "u2", "attempt-2", PodLifetimeEvent.ENDED, "Succeeded", 300));
        }

        List<PodInterval> intervals = PodLifetimeRecord.readAll(List.of(a, b));

        assertThat(intervals).hasSize(2);
        assertThat(intervals.get(0).endPhase()).isEqualTo(Kubelet.DELETED);
        assertThat(AttemptOverlaps.find(intervals)).isEmpty();
    }

    @Test
    void aPodOfAKilledClusterWithoutEndOverlapsEverythingAfterIt(@TempDir Path dir) throws Exception {
        Path a = dir.resolve("a.jsonl");
        Path b = dir.resolve("b.jsonl");
        try (PodLifetimeRecorder recordA = new PodLifetimeRecorder(a); PodLifetimeRecorder recordB = new PodLifetimeRecorder(b)) {
            recordA.record(event("a", "p1", "u1", "attempt-1", PodLifetimeEvent.STARTED, "Running", 100));
            recordB.record(event("b", "p1", "u2", "attempt-2", PodLifetimeEvent.STARTED, "Running", 5_000));
            recordB.record(event("b", "p2", "u3", "attempt-2", PodLifetimeEvent.STARTED, "Running", 5_000));
        }
        Files.writeString(a, "{\"cluster\":\"a\",\"uid\":", java.nio.file.StandardOpenOption.APPEND);

        List<PodInterval> intervals = PodLifetimeRecord.readAll(List.of(a, b));

        assertThat(AttemptOverlaps.find(intervals)).hasSize(2)
            .allSatisfy(o -> assertThat(o.workload()).isEqualTo("ns/wl"));
        assertThatThrownBy(() -> AttemptOverlaps.assertNone(intervals)).hasMessageContaining("2 overlapping attempt(s)");
    }

    private static PodLifetimeEvent event(String cluster, String pod, String uid, String attempt, String event,
                                          String phase, long time) {
        return new PodLifetimeEvent(cluster, "ns", pod, uid, cluster + "-node", Map.of(
            "berth.dev/workload", "ns/wl", "berth.dev/attempt-id", attempt), event, phase, time);
    }
}
