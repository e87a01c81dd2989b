package dev.berth.manager.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.model.WorkloadKey;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Issue 20, rule 4: a stopping copy keeps its quota and its GPUs until its stop is confirmed. */
class StoppingCopiesTest {
    private static final String GPU = "nvidia.com/gpu";
    private static final WorkloadKey LOW = WorkloadKey.of("team-a", "low");

    private static PlacementRequest eightGpus(WorkloadKey key) {
        return new PlacementRequest(key, 0, List.of(new PodSetDemand("main", 1, Map.of(GPU, 8L), Map.of(GPU, "a100"))));
    }

    /** What the cluster's last heartbeat said: all 8 GPUs free (the copy's pods were deleted, their stop not yet confirmed). */
    private static ClusterView reportingAllFree(String name) {
        return new ClusterView(name, true, false, Instant.parse("2026-01-01T00:00:00Z"),
                Map.of("a100", new FlavorCapacity("a100", Map.of(GPU, 8L), Map.of(GPU, 8L))));
    }

    @Test
    void aCopyWhoseStopIsNotConfirmedKeepsItsGpusInUseOnItsCluster() {
        StoppingCopies copies = new StoppingCopies();
        copies.stopRequested(LOW, "attempt-1", List.of("h100"), eightGpus(LOW));
        ClusterView seen = InFlightDispatches.withoutInFlight(reportingAllFree("h100"), copies.demandOn("h100"));
        assertThat(seen.flavors().get("a100").free(GPU)).isZero();
        assertThat(copies.demandOn("a100-spot")).isEmpty();
    }

    @Test
    void quotaIsNotReleasedWhileAFenceStillHoldsTheCopy() {
        StoppingCopies copies = new StoppingCopies();
        copies.stopRequested(LOW, "attempt-1", List.of("h100"), eightGpus(LOW));
        assertThat(copies.mayReleaseQuota(LOW, "waiting for the old attempt attempt-1 on cluster h100 to stop its pods")).isFalse();
        assertThat(copies.isStopping(LOW)).isTrue();
        assertThat(copies.demandOn("h100")).hasSize(1);
    }

    @Test
    void onceTheStopIsConfirmedTheQuotaMayGoAndTheGpusCountAsFree() {
        StoppingCopies copies = new StoppingCopies();
        copies.stopRequested(LOW, "attempt-1", List.of("h100"), eightGpus(LOW));
        assertThat(copies.mayReleaseQuota(LOW, null)).isTrue();
        assertThat(copies.isStopping(LOW)).isFalse();
        assertThat(copies.demandOn("h100")).isEmpty();
    }

    @Test
    void aWorkloadWithNoCopyToStopReleasesAtOnce() {
        assertThat(new StoppingCopies().mayReleaseQuota(LOW, null)).isTrue();
    }

    @Test
    void aCopyRecoveredWithoutItsDemandCountsNothingAgainstCapacity() {
        StoppingCopies copies = new StoppingCopies();
        copies.stopRequested(LOW, "attempt-1", List.of("h100"), null);
        assertThat(copies.demandOn("h100")).isEmpty();
        assertThat(copies.mayReleaseQuota(LOW, "held")).isFalse();
    }

    @Test
    void aDeletedWorkloadIsForgotten() {
        StoppingCopies copies = new StoppingCopies();
        copies.stopRequested(LOW, "attempt-1", List.of("h100", "a100-spot"), eightGpus(LOW));
        assertThat(copies.demandOn("a100-spot")).hasSize(1);
        copies.forget(LOW);
        assertThat(copies.demandOn("h100")).isEmpty();
        assertThat(copies.demandOn("a100-spot")).isEmpty();
    }
}
