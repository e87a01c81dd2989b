package dev.berth.manager.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.dispatch.WorkloadReconcile.Abandon;
import dev.berth.manager.dispatch.WorkloadReconcile.ConfigMissing;
import dev.berth.manager.dispatch.WorkloadReconcile.ForgetWorkload;
import dev.berth.manager.dispatch.WorkloadReconcile.HeldByFence;
import dev.berth.manager.dispatch.WorkloadReconcile.NothingToRun;
import dev.berth.manager.dispatch.WorkloadReconcile.Place;
import dev.berth.manager.dispatch.WorkloadReconcile.QuotaGone;
import dev.berth.manager.dispatch.WorkloadReconcile.Standing;
import dev.berth.manager.dispatch.WorkloadReconcile.StopCopies;
import dev.berth.manager.dispatch.WorkloadReconcile.StopWaiting;
import dev.berth.manager.dispatch.WorkloadReconcile.WorkloadGone;
import dev.berth.manager.model.WorkloadKey;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class WorkloadReconcileTest {
    private static final DispatchAttempt CURRENT = DispatchAttempt.dispatched("a1", 1, Duration.ofSeconds(60),
            new PlacementRequest(WorkloadKey.of("team", "train"), 0, List.of()), Instant.parse("2026-12-01T12:00:00Z"));

    @Test
    void anEvictedWorkloadStillHoldingQuotaHasItsCopiesStoppedNotAbandoned() {
        assertThat(WorkloadReconcile.reconcile(Standing.AWAITING_COPY_STOP, CURRENT, "Ready"))
                .containsExactly(new StopWaiting(), new StopCopies(CURRENT));
        assertThat(WorkloadReconcile.reconcile(Standing.AWAITING_COPY_STOP, null, "Ready"))
                .as("no attempt current: the quota is still released once nothing holds it").containsExactly(new StopWaiting(), new StopCopies(null));
    }

    @Test
    void aDeletedWorkloadIsForgottenAndItsCurrentAttemptAbandoned() {
        assertThat(WorkloadReconcile.reconcile(Standing.DELETED, CURRENT, null))
                .containsExactly(new StopWaiting(), new ForgetWorkload(), new QuotaGone(true), new Abandon(CURRENT, "workload deleted"));
        assertThat(WorkloadReconcile.reconcile(Standing.DELETED, null, null)).containsExactly(new StopWaiting(), new ForgetWorkload(), new QuotaGone(true));
    }

    @Test
    void aWorkloadThatNoLongerHoldsQuotaKeepsWhatWasRememberedButItsAttemptIsAbandoned() {
        assertThat(WorkloadReconcile.reconcile(Standing.NOT_HOLDING_QUOTA, CURRENT, "Pending"))
                .containsExactly(new StopWaiting(), new QuotaGone(false), new Abandon(CURRENT, "workload no longer holds quota"));
    }

    @Test
    void onlyAWorkloadHoldingQuotaWithItsCheckPendingAndNoCurrentAttemptIsPlaced() {
        assertThat(WorkloadReconcile.reconcile(Standing.HOLDING_QUOTA, null, "Pending")).containsExactly(new Place());
        assertThat(WorkloadReconcile.reconcile(Standing.HOLDING_QUOTA, CURRENT, "Pending")).as("an attempt is current").isEmpty();
        assertThat(WorkloadReconcile.reconcile(Standing.HOLDING_QUOTA, null, "Ready")).as("a copy was admitted").isEmpty();
        assertThat(WorkloadReconcile.reconcile(Standing.HOLDING_QUOTA, null, "Retry")).as("the check asks admission to retry").isEmpty();
        assertThat(WorkloadReconcile.reconcile(Standing.HOLDING_QUOTA, null, null)).as("no MultiKueue check: not dispatched").isEmpty();
    }

    @Test
    void aFenceOnAnOldAttemptHoldsTheWorkloadBeforeAnythingElseIsLookedAt() {
        assertThat(WorkloadReconcile.placementBlocked("held until the old lease ran out", false, null, null, false))
                .isEqualTo(new HeldByFence("held until the old lease ran out"));
    }

    @Test
    void aWorkloadWithNothingToRunOrAMissingConfigWaitsWithAMessageAndAGoneWorkloadWithout() {
        assertThat(WorkloadReconcile.placementBlocked(null, false, null, "mk", true)).isEqualTo(new WorkloadGone());
        assertThat(new WorkloadGone().message()).as("the check is left as it is").isNull();
        assertThat(WorkloadReconcile.placementBlocked(null, true, "nothing to run", "mk", false)).isEqualTo(new NothingToRun("nothing to run"));
        assertThat(WorkloadReconcile.placementBlocked(null, true, null, "mk", false).message()).isEqualTo("MultiKueueConfig mk not found");
        assertThat(WorkloadReconcile.placementBlocked(null, true, null, "mk", false)).isInstanceOf(ConfigMissing.class);
        assertThat(WorkloadReconcile.placementBlocked(null, true, null, "mk", true)).as("may be placed").isNull();
    }
}
