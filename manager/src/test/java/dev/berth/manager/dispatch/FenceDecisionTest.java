package dev.berth.manager.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.dispatch.FenceCommand.CreateSuperseded;
import dev.berth.manager.dispatch.FenceCommand.DeleteAndList;
import dev.berth.manager.dispatch.FenceCommand.HoldChanged;
import dev.berth.manager.dispatch.FenceCommand.Lifted;
import dev.berth.manager.dispatch.FenceCommand.PersistHolds;
import dev.berth.manager.dispatch.FenceCommand.Released;
import dev.berth.manager.model.WorkloadKey;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The fences an old attempt leaves: raises, creates' answers, polls and the poll's tick in; the holds and the edge's
 * commands out (docs/failover.md, "A dead or frozen agent", "A create the cluster never acknowledged", "A dead leader's
 * unconfirmed dispatch"). One test per rule; fences on old pods wait at most 10 s (workerLostTimeout).
 */
class FenceDecisionTest {
    private static final Instant T0 = Instant.parse("2026-12-01T12:00:00Z");
    private static final WorkloadKey KEY = WorkloadKey.of("team", "train");
    private static final long EPOCH = 7;

    private final FenceDecision decision = new FenceDecision(Duration.ofSeconds(10), EPOCH);
    private final Map<String, ClusterHealth> health = new HashMap<>();
    private final Set<String> uncallable = new HashSet<>();

    private List<FenceCommand> advance(Instant now) {
        List<FenceCommand> commands = new ArrayList<>();
        decision.advance(cluster -> health.getOrDefault(cluster, ClusterHealth.AGENT_LOST), cluster -> !uncallable.contains(cluster), now,
                commands::add);
        return commands;
    }

    private static SupersededCreate.Poll poll(long agentEpoch, Instant at, String... listed) {
        return new SupersededCreate.Poll(agentEpoch, at, at.plusMillis(100), Set.of(listed));
    }

    // ---- a dead or frozen agent ----------------------------------------------------------------------------

    @Test
    void aFenceOnOldPodsHoldsTheWorkloadSaysForWhatAndIsPersisted() {
        List<FenceCommand> commands = decision.raise(KEY, "east", "a1", T0.plusSeconds(7), T0);

        OldAttemptFence fence = OldAttemptFence.raised("east", "a1", T0, T0.plusSeconds(7));
        assertThat(commands).containsExactly(new PersistHolds(KEY, List.of(fence)));
        assertThat(decision.hold(KEY)).contains("waiting for the old attempt a1 on cluster east to stop its pods", "not listed yet");
        assertThat(decision.fences(KEY)).containsExactly(fence);
    }

    @Test
    void everyPollDeletesTheOldObjectsAndListsThePodsOneCallInFlightAtATime() {
        decision.raise(KEY, "east", "a1", T0.plusSeconds(7), T0);

        assertThat(advance(T0.plusSeconds(1))).containsExactly(new DeleteAndList(KEY, "east", "a1"));
        assertThat(advance(T0.plusSeconds(2))).as("the first call has not answered").isEmpty();

        assertThat(decision.listed(KEY, "east", "a1", 3)).isTrue();
        assertThat(advance(T0.plusSeconds(3))).containsExactly(new DeleteAndList(KEY, "east", "a1"), new HoldChanged(KEY));
        assertThat(decision.hold(KEY)).contains("3 pod(s) still running");
    }

    @Test
    void twoListingsInARowWithNoLivePodLetTheWorkloadGoAndTheHoldIsRemoved() {
        decision.raise(KEY, "east", "a1", T0.plusSeconds(7), T0);
        advance(T0.plusSeconds(1));
        decision.listed(KEY, "east", "a1", 0);
        advance(T0.plusSeconds(2));
        decision.listed(KEY, "east", "a1", 0);

        List<FenceCommand> commands = advance(T0.plusSeconds(3));

        assertThat(commands).hasSize(3);
        assertThat(commands.get(0)).isInstanceOfSatisfying(Lifted.class, lifted -> {
            assertThat(lifted.verdict().reason()).isEqualTo(RedispatchGate.PODS_STOPPED);
            assertThat(lifted.gaveUp()).isFalse();
        });
        assertThat(commands.subList(1, 3)).containsExactly(new PersistHolds(KEY, List.of()), new Released(KEY));
        assertThat(decision.hold(KEY)).isNull();
        assertThat(advance(T0.plusSeconds(4))).isEmpty();
    }

    @Test
    void anUnreachableClusterLetsTheWorkloadGoOnceTheOldLeaseHasSurelyRunOut() {
        decision.raise(KEY, "east", "a1", T0.plusSeconds(7), T0);
        health.put("east", ClusterHealth.UNREACHABLE);

        assertThat(advance(T0.plusSeconds(6))).doesNotHaveAnyElementsOfTypes(Lifted.class);
        assertThat(advance(T0.plusSeconds(7))).first().isInstanceOfSatisfying(Lifted.class,
                lifted -> assertThat(lifted.verdict().reason()).isEqualTo(RedispatchGate.LEASE_EXPIRED));
    }

    @Test
    void theWaitIsBoundedByWorkerLostTimeoutFromWhenTheFenceWasRaised() {
        decision.raise(KEY, "east", "a1", T0.plusSeconds(7), T0);
        decision.listed(KEY, "east", "a1", 2);

        assertThat(advance(T0.plusMillis(9_999))).doesNotHaveAnyElementsOfTypes(Lifted.class);
        assertThat(advance(T0.plusSeconds(10))).first().isInstanceOfSatisfying(Lifted.class, lifted -> {
            assertThat(lifted.verdict().reason()).isEqualTo(RedispatchGate.WAIT_EXCEEDED);
            assertThat(lifted.gaveUp()).as("recorded as a Warning").isTrue();
        });
        assertThat(decision.hold(KEY)).isNull();
    }

    @Test
    void aClusterThisManagerCannotCallIsNotMarkedInFlightSoTheCallGoesOutOnceItCan() {
        decision.raise(KEY, "east", "a1", T0.plusSeconds(7), T0);
        uncallable.add("east");

        assertThat(advance(T0.plusSeconds(1))).isEmpty();
        uncallable.clear();
        assertThat(advance(T0.plusSeconds(2))).containsExactly(new DeleteAndList(KEY, "east", "a1"));
    }

    @Test
    void aFailedDeleteAndListIsSentAgainAtTheNextPoll() {
        decision.raise(KEY, "east", "a1", T0.plusSeconds(7), T0);
        advance(T0.plusSeconds(1));

        assertThat(decision.listingFailed(KEY, "east", "a1")).isTrue();
        assertThat(advance(T0.plusSeconds(2))).containsExactly(new DeleteAndList(KEY, "east", "a1"));
    }

    @Test
    void aListingOfAnAttemptNoLongerFencedThereIsIgnored() {
        decision.raise(KEY, "east", "a1", T0.plusSeconds(7), T0);
        advance(T0.plusSeconds(1));
        decision.raise(KEY, "east", "a2", T0.plusSeconds(9), T0.plusSeconds(2));

        assertThat(decision.listed(KEY, "east", "a1", 0)).isFalse();
        assertThat(decision.fences(KEY)).singleElement().satisfies(fence -> {
            assertThat(fence.attemptId()).isEqualTo("a2");
            assertThat(fence.livePods()).isEqualTo(-1);
        });
    }

    @Test
    void eachClusterHoldingTheOldAttemptIsFencedAndTheWorkloadGoesOnlyWhenAllAreLifted() {
        decision.raise(KEY, "east", "a1", T0.plusSeconds(7), T0);
        decision.raise(KEY, "west", "a1", T0.plusSeconds(7), T0);
        health.put("west", ClusterHealth.UNREACHABLE);

        List<FenceCommand> commands = advance(T0.plusSeconds(8));

        assertThat(commands.get(0)).isEqualTo(new DeleteAndList(KEY, "east", "a1"));
        assertThat(commands.get(1)).isInstanceOf(Lifted.class);
        assertThat(commands.get(2)).isEqualTo(new PersistHolds(KEY, List.of(OldAttemptFence.raised("east", "a1", T0, T0.plusSeconds(7)))));
        assertThat(commands).doesNotHaveAnyElementsOfTypes(Released.class);
        assertThat(decision.hold(KEY)).contains("on cluster east");
    }

    // ---- a create the cluster never acknowledged ----------------------------------------------------------

    @Test
    void anUnconfirmedCreateHoldsTheWorkloadUntilTheLeaseItCarriedRunsOutAndIsNeverDeletedAndListed() {
        assertThat(decision.raiseUnconfirmed(KEY, "east", "a1", T0.plusSeconds(7), EPOCH, T0))
                .containsExactly(new PersistHolds(KEY, List.of(OldAttemptFence.unconfirmed("east", "a1", T0, T0.plusSeconds(7)))));
        assertThat(decision.hold(KEY)).contains("was never confirmed and may still arrive there");

        assertThat(advance(T0.plusMillis(6_999))).as("listings prove nothing: it may arrive after any deletion").isEmpty();
        assertThat(advance(T0.plusSeconds(7))).first().isInstanceOfSatisfying(Lifted.class,
                lifted -> assertThat(lifted.verdict().reason()).isEqualTo(RedispatchGate.LEASE_EXPIRED));
        assertThat(decision.hold(KEY)).isNull();
    }

    @Test
    void anUnconfirmedCreateWhoseLeaseHasRunOutAlreadyHoldsNothing() {
        assertThat(decision.raiseUnconfirmed(KEY, "east", "a1", T0, EPOCH, T0)).isEmpty();
        assertThat(decision.hold(KEY)).isNull();
    }

    @Test
    void anUnconfirmedCreateNeverReplacesAFenceOnOldPodsOnTheSameCluster() {
        decision.raise(KEY, "east", "a1", T0.plusSeconds(7), T0);

        assertThat(decision.raiseUnconfirmed(KEY, "east", "a2", T0.plusSeconds(9), EPOCH, T0.plusSeconds(1))).isEmpty();
        assertThat(decision.fences(KEY)).singleElement().satisfies(fence -> assertThat(fence.unconfirmedCreate()).isFalse());
    }

    @Test
    void aCreateAnsweredAfterItsAttemptWasAbandonedLiftsItsHoldAtOnce() {
        decision.raiseUnconfirmed(KEY, "east", "a1", T0.plusSeconds(7), EPOCH, T0);

        assertThat(decision.createAnswered(KEY, "east", "a2")).as("another attempt's answer").isEmpty();
        assertThat(decision.createAnswered(KEY, "east", "a1")).containsExactly(new PersistHolds(KEY, List.of()), new Released(KEY));
        assertThat(decision.hold(KEY)).isNull();
    }

    @Test
    void aCreateAnsweredLiftsOnlyItsOwnHoldTheWorkloadStaysHeldByTheOthers() {
        decision.raiseUnconfirmed(KEY, "east", "a1", T0.plusSeconds(7), EPOCH, T0);
        decision.raise(KEY, "west", "a1", T0.plusSeconds(7), T0);

        assertThat(decision.createAnswered(KEY, "east", "a1"))
                .containsExactly(new PersistHolds(KEY, List.of(OldAttemptFence.raised("west", "a1", T0, T0.plusSeconds(7)))));
        assertThat(decision.hold(KEY)).isNotNull();
    }

    @Test
    void anAnswerNeverLiftsAFenceOnOldPods() {
        decision.raise(KEY, "east", "a1", T0.plusSeconds(7), T0);

        assertThat(decision.createAnswered(KEY, "east", "a1")).isEmpty();
        assertThat(decision.hold(KEY)).isNotNull();
    }

    // ---- a dead leader's unconfirmed dispatch ----------------------------------------------------------------

    @Test
    void anEarlierLeadersUnconfirmedCreateRefusedByTheAgentAndNotListedBecomesAHoldOnItsPods() {
        decision.raiseUnconfirmed(KEY, "east", "a1", T0.plusSeconds(70), EPOCH - 1, T0);

        List<FenceCommand> commands = decision.supersede("east", poll(EPOCH, T0.plusSeconds(2)), T0.plusSeconds(3));

        OldAttemptFence podHold = OldAttemptFence.raised("east", "a1", T0, T0.plusSeconds(70));
        assertThat(commands.get(0)).isEqualTo(new PersistHolds(KEY, List.of(podHold)));
        assertThat(commands.get(1)).isInstanceOfSatisfying(CreateSuperseded.class, superseded -> {
            assertThat(superseded.attemptId()).isEqualTo("a1");
            assertThat(superseded.agentEpoch()).isEqualTo(EPOCH);
        });
        assertThat(decision.hold(KEY)).contains("to stop its pods");
        assertThat(advance(T0.plusSeconds(4))).as("now its pods are deleted and listed").containsExactly(new DeleteAndList(KEY, "east", "a1"));
    }

    @Test
    void thisLeadersOwnUnconfirmedCreateIsNotSupersededByItsOwnEpoch() {
        decision.raiseUnconfirmed(KEY, "east", "a1", T0.plusSeconds(70), EPOCH, T0);

        assertThat(decision.supersede("east", poll(EPOCH, T0.plusSeconds(2)), T0.plusSeconds(3))).isEmpty();
        assertThat(decision.fences(KEY)).singleElement().satisfies(fence -> assertThat(fence.unconfirmedCreate()).isTrue());
    }

    @Test
    void anUnconfirmedCreateListedOnTheClusterLandedAndKeepsItsLeaseWait() {
        decision.raiseUnconfirmed(KEY, "east", "a1", T0.plusSeconds(70), EPOCH - 1, T0);

        assertThat(decision.supersede("east", poll(EPOCH, T0.plusSeconds(2), "a1"), T0.plusSeconds(3))).isEmpty();
        assertThat(decision.supersede("west", poll(EPOCH, T0.plusSeconds(2)), T0.plusSeconds(3))).as("another cluster's poll").isEmpty();
    }

    @Test
    void aHoldRestoredAfterARestartHoldsAgainAndItsCreateCountsAsAnEarlierLeadersEpoch() {
        decision.restore(KEY, OldAttemptFence.unconfirmed("east", "a1", T0, T0.plusSeconds(70)), T0.plusSeconds(1));

        assertThat(decision.hold(KEY)).contains("was never confirmed");
        assertThat(decision.supersede("east", poll(EPOCH, T0.plusSeconds(2)), T0.plusSeconds(3))).hasAtLeastOneElementOfType(CreateSuperseded.class);
    }

    @Test
    void aRestoredFenceOnOldPodsIsDeletedAndListedAgainAndItsBoundedWaitCountsFromWhenItWasRaised() {
        decision.restore(KEY, OldAttemptFence.raised("east", "a1", T0, T0.plusSeconds(7)), T0.plusSeconds(5));

        assertThat(advance(T0.plusSeconds(5))).contains(new DeleteAndList(KEY, "east", "a1"));
        assertThat(advance(T0.plusSeconds(10))).first().isInstanceOfSatisfying(Lifted.class,
                lifted -> assertThat(lifted.verdict().reason()).isEqualTo(RedispatchGate.WAIT_EXCEEDED));
    }
}
