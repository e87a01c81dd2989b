package dev.berth.manager.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RedispatchGateTest {
    private static final Instant EVICTED = Instant.parse("2026-11-29T12:00:00Z");
    private static final Instant LEASE_GONE = EVICTED.minusSeconds(1);
    private final RedispatchGate gate = new RedispatchGate(Duration.ofSeconds(30));
    private final OldAttemptFence fence = OldAttemptFence.raised("gpu-east", "a-1", EVICTED, LEASE_GONE);

    @Test
    void aFreshFenceWaitsAndSaysForWhat() {
        RedispatchGate.Verdict verdict = gate.decide(fence, ClusterHealth.AGENT_LOST, EVICTED);

        assertThat(verdict.mayRedispatch()).isFalse();
        assertThat(verdict.reason()).isEqualTo(RedispatchGate.WAITING);
        assertThat(verdict.message()).contains("attempt a-1 on cluster gpu-east", "to stop its pods", "not listed yet",
                "at the latest at 2026-11-29T12:00:30Z");
    }

    @Test
    void runningPodsKeepTheWorkloadBackAndAreCounted() {
        RedispatchGate.Verdict verdict = gate.decide(fence.listed(3), ClusterHealth.AGENT_LOST, EVICTED.plusSeconds(5));

        assertThat(verdict.mayRedispatch()).isFalse();
        assertThat(verdict.message()).contains("3 pod(s) still running");
    }

    @Test
    void oneEmptyListingIsNotYetAConfirmation() {
        assertThat(gate.decide(fence.listed(2).listed(0), ClusterHealth.AGENT_LOST, EVICTED.plusSeconds(2)).mayRedispatch()).isFalse();
    }

    @Test
    void twoEmptyListingsInARowLetTheWorkloadGo() {
        RedispatchGate.Verdict verdict = gate.decide(fence.listed(1).listed(0).listed(0), ClusterHealth.AGENT_LOST, EVICTED.plusSeconds(3));

        assertThat(verdict.mayRedispatch()).isTrue();
        assertThat(verdict.reason()).isEqualTo(RedispatchGate.PODS_STOPPED);
    }

    @Test
    void aPodSeenBetweenEmptyListingsStartsTheConfirmationAgain() {
        OldAttemptFence recreated = fence.listed(0).listed(1).listed(0);

        assertThat(recreated.emptyListings()).isEqualTo(1);
        assertThat(gate.decide(recreated, ClusterHealth.AGENT_LOST, EVICTED.plusSeconds(3)).mayRedispatch()).isFalse();
    }

    @Test
    void anApiThatStopsAnsweringFallsBackToTheExpiredLease() {
        RedispatchGate.Verdict verdict = gate.decide(fence.listed(2), ClusterHealth.UNREACHABLE, EVICTED.plusSeconds(1));

        assertThat(verdict.mayRedispatch()).isTrue();
        assertThat(verdict.reason()).isEqualTo(RedispatchGate.LEASE_EXPIRED);
    }

    @Test
    void aFenceRaisedWhileTheAgentWasLostNeverLiftsOnTheLeaseAloneOnlyOnListingsOrTheBoundedWait() {
        OldAttemptFence afterAgentLoss = OldAttemptFence.raised("gpu-east", "a-1", EVICTED, EVICTED.plusSeconds(1), true);

        assertThat(gate.decide(afterAgentLoss, ClusterHealth.UNREACHABLE, EVICTED.plusSeconds(5)).mayRedispatch()).isFalse();
        assertThat(gate.decide(afterAgentLoss.listed(0).listed(0), ClusterHealth.UNREACHABLE, EVICTED.plusSeconds(5)).reason())
                .isEqualTo(RedispatchGate.PODS_STOPPED);
        assertThat(gate.decide(afterAgentLoss, ClusterHealth.UNREACHABLE, gate.deadline(afterAgentLoss)).reason())
                .isEqualTo(RedispatchGate.WAIT_EXCEEDED);
        assertThat(afterAgentLoss.listed(1).agentLost()).as("kept through listings").isTrue();
    }

    @Test
    void anUnreachableClusterWhoseLeaseMayStillRunWaits() {
        OldAttemptFence longLease = OldAttemptFence.raised("gpu-east", "a-1", EVICTED, EVICTED.plusSeconds(20));

        assertThat(gate.decide(longLease, ClusterHealth.UNREACHABLE, EVICTED.plusSeconds(10)).mayRedispatch()).isFalse();
        assertThat(gate.decide(longLease, ClusterHealth.UNREACHABLE, EVICTED.plusSeconds(20)).reason()).isEqualTo(RedispatchGate.LEASE_EXPIRED);
    }

    @Test
    void aDegradedClusterIsNotTakenForSilent() {
        assertThat(gate.decide(fence.listed(1), ClusterHealth.DEGRADED, EVICTED.plusSeconds(5)).mayRedispatch()).isFalse();
    }

    @Test
    void theWaitIsBounded() {
        assertThat(gate.decide(fence.listed(1), ClusterHealth.AGENT_LOST, EVICTED.plusSeconds(29)).mayRedispatch()).isFalse();

        RedispatchGate.Verdict verdict = gate.decide(fence.listed(1), ClusterHealth.AGENT_LOST, EVICTED.plusSeconds(30));
        assertThat(verdict.mayRedispatch()).isTrue();
        assertThat(verdict.reason()).isEqualTo(RedispatchGate.WAIT_EXCEEDED);
        assertThat(verdict.message()).contains("gave up waiting 30s", "1 pod(s) still running");
    }

    @Test
    void aWaitMustBePositive() {
        assertThatThrownBy(() -> new RedispatchGate(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void anUnconfirmedCreateHoldsTheWorkloadUntilItsLeaseRunsOutWhateverTheListingsShow() {
        Instant leaseGone = EVICTED.plusSeconds(70);
        OldAttemptFence unconfirmed = OldAttemptFence.unconfirmed("gpu-east", "a-1", EVICTED, leaseGone);

        RedispatchGate.Verdict held = gate.decide(unconfirmed.listed(0).listed(0).listed(0), ClusterHealth.UNREACHABLE, leaseGone.minusMillis(1));
        assertThat(held.mayRedispatch()).as("empty listings cannot prove a delayed create will not arrive").isFalse();
        assertThat(held.reason()).isEqualTo(RedispatchGate.UNCONFIRMED);
        assertThat(held.message()).contains("attempt a-1 on cluster gpu-east", "never confirmed", "at 2026-11-29T12:01:10Z");
        assertThat(gate.decide(unconfirmed, ClusterHealth.HEALTHY, EVICTED.plusSeconds(31)).mayRedispatch())
                .as("nor does the bounded wait for pods apply").isFalse();

        RedispatchGate.Verdict released = gate.decide(unconfirmed, ClusterHealth.HEALTHY, leaseGone);
        assertThat(released.mayRedispatch()).isTrue();
        assertThat(released.reason()).isEqualTo(RedispatchGate.LEASE_EXPIRED);
        assertThat(released.message()).contains("can no longer start there");
    }
}
