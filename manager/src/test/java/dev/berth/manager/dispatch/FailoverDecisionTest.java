package dev.berth.manager.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.dispatch.FailoverCommand.Abandon;
import dev.berth.manager.dispatch.FailoverCommand.AdvanceFences;
import dev.berth.manager.dispatch.FailoverCommand.CordonCondition;
import dev.berth.manager.dispatch.FailoverCommand.CountFailover;
import dev.berth.manager.dispatch.FailoverCommand.DeleteCopy;
import dev.berth.manager.dispatch.FailoverCommand.Evict;
import dev.berth.manager.dispatch.FailoverCommand.ExpireLease;
import dev.berth.manager.dispatch.FailoverCommand.FenceOldPods;
import dev.berth.manager.dispatch.FailoverCommand.HealthCondition;
import dev.berth.manager.dispatch.FailoverCommand.RecordClusterLost;
import dev.berth.manager.dispatch.FailoverCommand.RecordHistory;
import dev.berth.manager.dispatch.FailoverCommand.RecordMark;
import dev.berth.manager.dispatch.FailoverCommand.Reschedule;
import dev.berth.manager.dispatch.FailoverDecision.Marks;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.protocol.Conditions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A cluster's health, an operator's marks, the poll's tick and a drained copy's stop, in; the attempts' transitions and the
 * edge's commands, out, in order (docs/failover.md, "workerLostTimeout" and "Operator actions"). One test per rule; the
 * drills' settings: workerLostTimeout 10 s, lease 6 s, margin 1 s.
 */
class FailoverDecisionTest {
    private static final Instant T0 = Instant.parse("2026-12-01T12:00:00Z");
    private static final WorkloadKey KEY = WorkloadKey.of("team", "train");
    private static final Duration LEASE = Duration.ofSeconds(6);
    private static final HealthAssessment HEALTHY = new HealthAssessment(ClusterHealth.HEALTHY, "heartbeat fresh");
    private static final HealthAssessment DEGRADED = new HealthAssessment(ClusterHealth.DEGRADED, "latest call failed");
    private static final HealthAssessment UNREACHABLE = new HealthAssessment(ClusterHealth.UNREACHABLE, "no call succeeded for 5s");
    private static final HealthAssessment AGENT_LOST = new HealthAssessment(ClusterHealth.AGENT_LOST, "heartbeat 5s old");

    private final FailoverDecision decision = new FailoverDecision(
            new FailoverOptions(Duration.ofSeconds(10), Duration.ofSeconds(1), HealthOptions.DEFAULTS));
    private final CurrentAttempts attempts = new CurrentAttempts();
    private final FakeClusters clusters = new FakeClusters();

    private DispatchAttempt sentTo(WorkloadKey key, String... on) {
        DispatchAttempt attempt = DispatchAttempt.dispatched("a-" + key.name(), 1, LEASE, new PlacementRequest(key, 0, List.of()), T0);
        for (String cluster : on) attempt.createSent(cluster, T0);
        attempts.begin(key, attempt);
        return attempt;
    }

    private List<FailoverCommand> poll(Instant now, String... draining) {
        List<FailoverCommand> commands = new ArrayList<>();
        decision.poll(attempts, clusters, List.of(draining), now, commands::add);
        return commands;
    }

    private List<FailoverCommand> marks(String cluster, Marks before, Marks after, Instant now) {
        List<FailoverCommand> commands = new ArrayList<>();
        decision.marksChanged(cluster, before, after, attempts, now, commands::add);
        return commands;
    }

    // ---- cluster health ---------------------------------------------------------------------------------

    @Test
    void aHealthyClustersConditionIsTrueAndSaysNothingOfALoss() {
        assertThat(decision.healthChanged("east", HEALTHY, null))
                .containsExactly(new HealthCondition("east", true, Conditions.Reasons.HEALTHY, "heartbeat fresh"));
    }

    @Test
    void aClusterThatBecomesLostIsRecordedOncePerLossWithSinceWhen() {
        List<FailoverCommand> first = decision.healthChanged("east", AGENT_LOST, T0.plusMillis(1_500));

        assertThat(first).first().isEqualTo(new HealthCondition("east", false, Conditions.Reasons.AGENT_LOST,
                "heartbeat 5s old (lost since 2026-12-01T12:00:01Z)"));
        assertThat(first).element(1).isInstanceOfSatisfying(RecordClusterLost.class, lost -> {
            assertThat(lost.cluster()).isEqualTo("east");
            assertThat(lost.message()).contains("worker cluster east lost (AgentLost)", "after workerLostTimeout 10s");
        });
        assertThat(decision.healthChanged("east", UNREACHABLE, T0)).as("still lost: not recorded again").hasSize(1);
        decision.healthChanged("east", HEALTHY, null);
        assertThat(decision.healthChanged("east", AGENT_LOST, T0.plusSeconds(60))).as("a new loss is recorded")
                .hasAtLeastOneElementOfType(RecordClusterLost.class);
    }

    @Test
    void aDegradedClusterIsNotHealthyButNotLostEither() {
        assertThat(decision.healthChanged("east", DEGRADED, null))
                .containsExactly(new HealthCondition("east", false, Conditions.Reasons.DEGRADED, "latest call failed"));
    }

    // ---- workerLostTimeout ---------------------------------------------------------------------------------

    @Test
    void aWorkloadWhoseEveryCopyIsOnAClusterLostLongEnoughIsRecordedCountedAbandonedEvictedAndRescheduled() {
        DispatchAttempt attempt = sentTo(KEY, "east");
        clusters.lost("east", UNREACHABLE, T0.plusSeconds(1));

        List<FailoverCommand> commands = poll(T0.plusSeconds(11));

        assertThat(commands).hasSize(6);
        assertThat(commands.get(0)).isInstanceOfSatisfying(RecordHistory.class, history -> {
            assertThat(history.outcome()).isEqualTo(Conditions.Reasons.CLUSTER_LOST);
            assertThat(history.cluster()).isEqualTo("east");
            assertThat(history.message()).contains("worker cluster east lost (Unreachable", "workerLostTimeout 10s");
        });
        String message = ((RecordHistory) commands.get(0)).message();
        assertThat(commands.subList(1, 6)).containsExactly(new CountFailover(KEY, "east"), new Abandon(KEY, attempt, "cluster lost"),
                new Evict(KEY, attempt, "east", Conditions.Reasons.CLUSTER_LOST, message), new AdvanceFences(), new Reschedule());
        assertThat(attempt.clusters()).as("the edge's abandon retires it; the attempt itself is not changed").containsExactly("east");
    }

    @Test
    void aLostClustersWorkloadStaysUntilWorkerLostTimeoutHasPassed() {
        sentTo(KEY, "east");
        clusters.lost("east", UNREACHABLE, T0.plusSeconds(1));

        assertThat(poll(T0.plusMillis(10_999))).containsExactly(new AdvanceFences());
    }

    @Test
    void aLostClustersWorkloadStaysWhileTheLastLeaseStampSentThereMayStillRun() {
        DispatchAttempt attempt = sentTo(KEY, "east");
        attempt.renewalStarted("east", T0.plusSeconds(8)); // renewed while a blip could still be passing
        clusters.lost("east", UNREACHABLE, T0.plusSeconds(1));

        assertThat(poll(T0.plusSeconds(14))).as("lost for 13 s, but the stamp of 8 s runs to 8 + 6 + 1").containsExactly(new AdvanceFences());
        assertThat(poll(T0.plusSeconds(15))).hasAtLeastOneElementOfType(Evict.class);
    }

    @Test
    void aWorkloadWithACopyOnAClusterThatIsNotLostStays() {
        sentTo(KEY, "east", "west");
        clusters.lost("east", UNREACHABLE, T0);

        assertThat(poll(T0.plusSeconds(60))).containsExactly(new AdvanceFences());
    }

    @Test
    void transientBlipsEvictNothingADegradedClusterNeverStartsTheClock() {
        sentTo(KEY, "east");
        clusters.lost("east", DEGRADED, T0);

        assertThat(poll(T0.plusSeconds(600))).containsExactly(new AdvanceFences());
    }

    @Test
    void anAttemptWithNoCopyLeftIsNotEvictedByTheLostClusterRule() {
        sentTo(KEY, "east").dropCluster("east");
        clusters.lost("east", UNREACHABLE, T0);

        assertThat(poll(T0.plusSeconds(60))).containsExactly(new AdvanceFences());
    }

    @Test
    void whereTheAgentIsLostButTheApiAnswersTheOldPodsAreFencedBeforeTheAttemptIsAbandoned() {
        DispatchAttempt attempt = sentTo(KEY, "east");
        clusters.lost("east", AGENT_LOST, T0.plusSeconds(1));

        List<FailoverCommand> commands = poll(T0.plusSeconds(11));

        assertThat(commands.get(2)).isEqualTo(new FenceOldPods(KEY, "east", attempt.id(), T0.plusSeconds(6 + 1)));
        assertThat(commands.get(3)).isEqualTo(new Abandon(KEY, attempt, "cluster lost"));
    }

    @Test
    void anUnreachableClusterGetsNoPodFenceItsAgentStopsTheCopyWhenTheLeaseRunsOut() {
        sentTo(KEY, "east");
        clusters.lost("east", UNREACHABLE, T0.plusSeconds(1));

        assertThat(poll(T0.plusSeconds(11))).noneMatch(FenceOldPods.class::isInstance);
    }

    @Test
    void aClusterWhoseAgentWasSeenLostBeforeItsApiStoppedAnsweringIsStillFencedAtEviction() {
        DispatchAttempt attempt = sentTo(KEY, "east");
        decision.healthChanged("east", AGENT_LOST, T0.plusSeconds(1));
        decision.healthChanged("east", UNREACHABLE, T0.plusSeconds(1));
        clusters.lost("east", UNREACHABLE, T0.plusSeconds(1));

        List<FailoverCommand> commands = poll(T0.plusSeconds(11));

        assertThat(commands).contains(new FenceOldPods(KEY, "east", attempt.id(), T0.plusSeconds(6 + 1)));
        assertThat(decision.fenceHealth("east", ClusterHealth.UNREACHABLE)).isEqualTo(ClusterHealth.AGENT_LOST);
    }

    @Test
    void aFreshHeartbeatEndsTheAgentsLossSoALaterPartitionTakesThePartitionPath() {
        sentTo(KEY, "east");
        decision.healthChanged("east", AGENT_LOST, T0);
        decision.healthChanged("east", DEGRADED, null);
        decision.healthChanged("east", UNREACHABLE, T0.plusSeconds(1));
        clusters.lost("east", UNREACHABLE, T0.plusSeconds(1));

        assertThat(poll(T0.plusSeconds(11))).noneMatch(FenceOldPods.class::isInstance);
        assertThat(decision.fenceHealth("east", ClusterHealth.UNREACHABLE)).isEqualTo(ClusterHealth.UNREACHABLE);
    }

    @Test
    void theAgentsLossIsKeptPerClusterAndNeverChangesAnAnsweringClustersHealth() {
        decision.healthChanged("east", AGENT_LOST, T0);

        assertThat(decision.fenceHealth("west", ClusterHealth.UNREACHABLE)).isEqualTo(ClusterHealth.UNREACHABLE);
        assertThat(decision.fenceHealth("east", ClusterHealth.HEALTHY)).isEqualTo(ClusterHealth.HEALTHY);
        assertThat(decision.fenceHealth("east", ClusterHealth.AGENT_LOST)).isEqualTo(ClusterHealth.AGENT_LOST);
    }

    @Test
    void renewalOnALostClusterStopsOnceLostSincePlusTimeoutMinusLeaseAndMarginIsNoLongerAhead() {
        DispatchAttempt attempt = sentTo(KEY, "east");
        Instant lostSince = T0.plusSeconds(1);

        assertThat(decision.keepRenewing(null, attempt, T0.plusSeconds(600))).as("not lost: always").isTrue();
        assertThat(decision.keepRenewing(lostSince, attempt, lostSince.plusMillis(2_999))).isTrue();
        assertThat(decision.keepRenewing(lostSince, attempt, lostSince.plusSeconds(10 - 6 - 1))).isFalse();
    }

    // ---- operator actions ---------------------------------------------------------------------------------

    @Test
    void aDrainExpiresTheLeaseOfEachAttemptThereOnPurposeAndMarksItDraining() {
        DispatchAttempt attempt = sentTo(KEY, "east");
        Instant now = T0.plusSeconds(30);

        List<FailoverCommand> commands = marks("east", new Marks(false, false), new Marks(true, true), now);

        assertThat(commands).hasSize(3);
        assertThat(commands.get(0)).isInstanceOfSatisfying(RecordMark.class, mark -> assertThat(mark.reason()).isEqualTo(Conditions.Reasons.DRAINING));
        assertThat(commands.get(1)).isEqualTo(new ExpireLease(KEY, "east", attempt, now.minus(LEASE).minusSeconds(1)));
        assertThat(commands.get(2)).isEqualTo(new CordonCondition("east", true, Conditions.Reasons.DRAINING, "draining: workloads move to other clusters"));
        assertThat(attempt.draining()).isTrue();
    }

    @Test
    void aDrainedCopyOfAnAttemptWithCopiesElsewhereAndNoWinnerIsDroppedAndDeletedNotExpired() {
        DispatchAttempt attempt = sentTo(KEY, "east", "west");

        List<FailoverCommand> commands = marks("east", new Marks(false, false), new Marks(true, true), T0);

        assertThat(commands).contains(new DeleteCopy(KEY, "east")).noneMatch(ExpireLease.class::isInstance);
        assertThat(attempt.clusters()).containsExactly("west");
        assertThat(attempt.draining()).isFalse();
    }

    @Test
    void aDrainedWinnersCopyIsExpiredEvenWhenItsAttemptStillListsOtherCopies() {
        DispatchAttempt attempt = sentTo(KEY, "east", "west");
        attempt.admittedOn("east");

        assertThat(marks("east", new Marks(false, false), new Marks(true, true), T0)).element(1).isInstanceOf(ExpireLease.class);
        assertThat(attempt.draining()).isTrue();
    }

    @Test
    void aDrainedClusterIsDrainedAgainEachPollOnlyForAttemptsNotAlreadyDraining() {
        DispatchAttempt attempt = sentTo(KEY, "east");
        marks("east", new Marks(false, false), new Marks(true, true), T0);

        assertThat(poll(T0.plusSeconds(1), "east")).as("already draining").containsExactly(new AdvanceFences());

        decision.expiryFailed(attempt);
        assertThat(attempt.draining()).isFalse();
        assertThat(poll(T0.plusSeconds(2), "east")).as("the failed expiry is tried again")
                .containsExactly(new ExpireLease(KEY, "east", attempt, T0.plusSeconds(2).minus(LEASE).minusSeconds(1)), new AdvanceFences());
        assertThat(attempt.draining()).isTrue();
    }

    @Test
    void anAttemptOnAnotherClusterIsNotTouchedByADrain() {
        DispatchAttempt attempt = sentTo(KEY, "west");

        assertThat(marks("east", new Marks(false, false), new Marks(true, true), T0)).noneMatch(c -> c instanceof ExpireLease || c instanceof DeleteCopy);
        assertThat(attempt.draining()).isFalse();
    }

    @Test
    void aDrainedCopyReportedStoppedIsCountedAbandonedAndItsWorkloadEvictedAsClusterDrained() {
        DispatchAttempt attempt = sentTo(KEY, "east");

        List<FailoverCommand> commands = decision.drained(KEY, attempt, "east");

        assertThat(commands).containsExactly(new CountFailover(KEY, "east"), new Abandon(KEY, attempt, "drained"),
                new Evict(KEY, attempt, "east", Conditions.Reasons.CLUSTER_DRAINED,
                        "worker cluster east drained by an operator; attempt a-train stopped there and requeued"));
    }

    @Test
    void aCordonIsRecordedAndLeavesRunningWorkloadsAndWaitingOnesAlone() {
        DispatchAttempt attempt = sentTo(KEY, "east");

        List<FailoverCommand> commands = marks("east", new Marks(false, false), new Marks(true, false), T0);

        assertThat(commands).containsExactly(
                new RecordMark("east", Conditions.Reasons.CORDONED, "cluster east cordoned: no new dispatch; running workloads stay"),
                new CordonCondition("east", true, Conditions.Reasons.CORDONED, "cordoned: no new dispatch"));
        assertThat(attempt.draining()).isFalse();
    }

    @Test
    void anUncordonIsRecordedAndPlacesTheWaitingWorkloadsAgain() {
        assertThat(marks("east", new Marks(true, true), new Marks(false, false), T0)).containsExactly(
                new RecordMark("east", Conditions.Reasons.UNCORDONED, "cluster east uncordoned: dispatch resumes"),
                new CordonCondition("east", false, Conditions.Reasons.UNCORDONED, "schedulable"),
                new Reschedule());
    }

    @Test
    void aDrainOnACordonedClusterStillDrainsIt() {
        DispatchAttempt attempt = sentTo(KEY, "east");

        assertThat(marks("east", new Marks(true, false), new Marks(true, true), T0)).hasAtLeastOneElementOfType(ExpireLease.class);
        assertThat(attempt.draining()).isTrue();
    }

    /** The clusters' health as the decision reads it: healthy and never lost unless told. */
    private static final class FakeClusters implements FailoverDecision.Clusters {
        private final Map<String, HealthAssessment> health = new HashMap<>();
        private final Map<String, Instant> lostSince = new HashMap<>();

        void lost(String cluster, HealthAssessment assessment, Instant since) {
            health.put(cluster, assessment);
            if (assessment.health().lost()) lostSince.put(cluster, since);
        }

        @Override
        public HealthAssessment health(String cluster) {
            return health.getOrDefault(cluster, HEALTHY);
        }

        @Override
        public Instant lostSince(String cluster) {
            return lostSince.get(cluster);
        }
    }
}
