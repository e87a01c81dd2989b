package dev.berth.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.protocol.crd.RemoteWorkload;
import dev.berth.protocol.crd.RemoteWorkloadPhase;
import dev.berth.protocol.crd.RemoteWorkloadStatus;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AssumptionsTest {
    private static final Instant T0 = Instant.parse("2026-12-02T16:00:00Z");
    private final Assumptions assumptions = new Assumptions();

    private static RemoteWorkload rw(String uid, String version, String phase) {
        RemoteWorkload rw = new RemoteWorkload();
        rw.setMetadata(new ObjectMetaBuilder().withNamespace("team").withName("train").withUid(uid).withResourceVersion(version).build());
        if (phase != null) {
            RemoteWorkloadStatus status = new RemoteWorkloadStatus();
            status.setPhase(phase);
            rw.setStatus(status);
        }
        return rw;
    }

    private String phaseSeen(RemoteWorkload cached) {
        RemoteWorkload current = assumptions.current(List.of(cached)).get(0);
        return current.getStatus() == null ? null : current.getStatus().getPhase();
    }

    @Test
    void theAgentsOwnWriteIsUsedWhileTheCacheShowsTheVersionItReplaced() {
        assumptions.wrote("1", rw("u", "2", RemoteWorkloadPhase.ADMITTED));

        assertThat(phaseSeen(rw("u", "1", null))).isEqualTo(RemoteWorkloadPhase.ADMITTED);
        assertThat(phaseSeen(rw("u", "1", null))).as("still lagging").isEqualTo(RemoteWorkloadPhase.ADMITTED);
    }

    @Test
    void theWriteIsForgottenOnceTheCacheShowsAnyOtherVersion() {
        assumptions.wrote("1", rw("u", "2", RemoteWorkloadPhase.ADMITTED));

        assertThat(phaseSeen(rw("u", "3", RemoteWorkloadPhase.RUNNING))).isEqualTo(RemoteWorkloadPhase.RUNNING);
        assertThat(phaseSeen(rw("u", "1", null))).as("forgotten: the cache had caught up").isNull();
    }

    @Test
    void successiveWritesKeepEveryVersionTheyReplaced() {
        assumptions.wrote("1", rw("u", "2", RemoteWorkloadPhase.ADMITTED));
        assumptions.wrote("2", rw("u", "3", RemoteWorkloadPhase.RUNNING));

        assertThat(phaseSeen(rw("u", "1", null))).isEqualTo(RemoteWorkloadPhase.RUNNING);
        assertThat(phaseSeen(rw("u", "2", RemoteWorkloadPhase.ADMITTED))).isEqualTo(RemoteWorkloadPhase.RUNNING);
    }

    @Test
    void aRecreatedRemoteWorkloadOfTheSameNameIsNotOverlaid() {
        assumptions.wrote("1", rw("u", "2", RemoteWorkloadPhase.ADMITTED));

        assertThat(phaseSeen(rw("other", "1", null))).isNull();
    }

    @Test
    void thePassWorksOnCopiesNotOnTheCachesObjects() {
        RemoteWorkload cached = rw("u", "1", RemoteWorkloadPhase.PENDING);
        RemoteWorkload copy = assumptions.current(List.of(cached)).get(0);
        copy.setStatus(new RemoteWorkloadStatus());
        copy.getMetadata().setResourceVersion("9");

        assertThat(cached.getStatus().getPhase()).isEqualTo(RemoteWorkloadPhase.PENDING);
        assertThat(cached.getMetadata().getResourceVersion()).isEqualTo("1");
    }

    @Test
    void aCreatedAttemptCountsUntilItsObjectsAreSeen() {
        assumptions.creating("team", "a-1", T0);
        assumptions.forget(Set.of(), Set.of("team/a-1"), T0.plusSeconds(1));
        assertThat(assumptions.createdUnseen("team", "a-1")).isTrue();

        assumptions.forget(Set.of("team/a-1"), Set.of("team/a-1"), T0.plusSeconds(2));
        assertThat(assumptions.createdUnseen("team", "a-1")).isFalse();
    }

    @Test
    void aCreatedAttemptIsForgottenWhenItsRemoteWorkloadIsGoneOrAfterTheHorizon() {
        assumptions.creating("team", "gone", T0);
        assumptions.creating("team", "never-seen", T0);

        assumptions.forget(Set.of(), Set.of("team/never-seen"), T0.plusSeconds(1));
        assertThat(assumptions.createdUnseen("team", "gone")).isFalse();
        assertThat(assumptions.createdUnseen("team", "never-seen")).isTrue();

        assumptions.forget(Set.of(), Set.of("team/never-seen"), T0.plus(Assumptions.CREATE_HORIZON));
        assertThat(assumptions.createdUnseen("team", "never-seen")).isFalse();
    }
}
