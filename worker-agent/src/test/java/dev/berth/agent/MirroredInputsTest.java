package dev.berth.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.protocol.crd.RemoteWorkload;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A running attempt is skipped only while the RemoteWorkload, its objects and its pods are at the versions found current. */
class MirroredInputsTest {
    private final MirroredInputs mirrored = new MirroredInputs();

    private static RemoteWorkload rw(String version) {
        RemoteWorkload rw = new RemoteWorkload();
        rw.setMetadata(new ObjectMetaBuilder().withNamespace("ns").withName("train").withUid("rw-uid").withResourceVersion(version).build());
        return rw;
    }

    private static Map<String, Object> job(String version) {
        return Map.of("kind", "Job", "metadata", Map.of("name", "train", "uid", "job-uid", "resourceVersion", version));
    }

    private static Pod pod(String name, String version) {
        return new PodBuilder().withNewMetadata().withName(name).withUid(name + "-uid").withResourceVersion(version).endMetadata().build();
    }

    private MirroredInputs.Inputs inputs(String rwVersion, String jobVersion, Pod... pods) {
        return MirroredInputs.Inputs.of(rw(rwVersion), List.of(job(jobVersion)), List.of(pods)).orElseThrow();
    }

    private void foundCurrent(MirroredInputs.Inputs inputs) {
        mirrored.current("ns/a1", inputs);
        mirrored.endPass();
    }

    @Test
    void aPassWithTheSameVersionsIsSkippedAndStaysSkipped() {
        foundCurrent(inputs("5", "7", pod("p1", "9")));

        assertThat(mirrored.unchanged("ns/a1", inputs("5", "7", pod("p1", "9")))).isTrue();
        mirrored.endPass();
        assertThat(mirrored.unchanged("ns/a1", inputs("5", "7", pod("p1", "9")))).as("a skipped pass keeps what it skipped on").isTrue();
    }

    @Test
    void aChangedPodRemoteWorkloadOrObjectIsComposedAgain() {
        foundCurrent(inputs("5", "7", pod("p1", "9")));

        assertThat(mirrored.unchanged("ns/a1", inputs("5", "7", pod("p1", "10")))).as("pod phase changed").isFalse();
        assertThat(mirrored.unchanged("ns/a1", inputs("6", "7", pod("p1", "9")))).as("status or spec changed").isFalse();
        assertThat(mirrored.unchanged("ns/a1", inputs("5", "8", pod("p1", "9")))).as("Job status changed").isFalse();
        assertThat(mirrored.unchanged("ns/a1", inputs("5", "7", pod("p1", "9"), pod("p2", "3")))).as("a pod appeared").isFalse();
        assertThat(mirrored.unchanged("ns/a1", inputs("5", "7"))).as("the pod is gone").isFalse();
        assertThat(mirrored.unchanged("ns/a2", inputs("5", "7", pod("p1", "9")))).as("another attempt").isFalse();
    }

    @Test
    void podOrderDoesNotMatter() {
        foundCurrent(inputs("5", "7", pod("p1", "9"), pod("p2", "3")));

        assertThat(mirrored.unchanged("ns/a1", inputs("5", "7", pod("p2", "3"), pod("p1", "9")))).isTrue();
    }

    @Test
    void anAttemptNotLookedAtInAPassIsForgotten() {
        foundCurrent(inputs("5", "7", pod("p1", "9")));
        mirrored.endPass();

        assertThat(mirrored.unchanged("ns/a1", inputs("5", "7", pod("p1", "9")))).isFalse();
    }

    @Test
    void nothingIsRememberedBeforeAPassFindsTheStatusCurrent() {
        assertThat(mirrored.unchanged("ns/a1", inputs("5", "7", pod("p1", "9")))).isFalse();
        mirrored.endPass();
        assertThat(mirrored.unchanged("ns/a1", inputs("5", "7", pod("p1", "9")))).isFalse();
    }

    @Test
    void withoutVersionsThereIsNothingToSkipOn() {
        assertThat(MirroredInputs.Inputs.of(rw(null), List.of(), List.of())).isEmpty();
        assertThat(MirroredInputs.Inputs.of(rw("5"), List.of(Map.of("metadata", Map.of("uid", "u"))), List.of())).isEmpty();
        assertThat(MirroredInputs.Inputs.of(rw("5"), List.of(), List.of(pod("p1", null)))).isEmpty();
    }
}
