package dev.berth.manager.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.manager.dispatch.StartWithdrawalPolicy.CopyReport;
import dev.berth.manager.dispatch.StartWithdrawalPolicy.StartingAttempt;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The attempt's transitions and what follows from them; the time is passed in, starting at T0. */
class DispatchAttemptTest {
    private static final Instant T0 = Instant.parse("2026-12-01T12:00:00Z");
    private static final Duration LEASE = Duration.ofSeconds(60);
    private static final Duration MARGIN = Duration.ofSeconds(5);
    private static final PlacementRequest REQUEST = new PlacementRequest(WorkloadKey.of("team", "train"), 0, List.of());

    private static DispatchAttempt dispatchedTo(String... clusters) {
        DispatchAttempt attempt = DispatchAttempt.dispatched("a1", 1, LEASE, REQUEST, T0);
        for (String cluster : clusters) attempt.createSent(cluster, T0);
        return attempt;
    }

    private static Instant at(int seconds) {
        return T0.plusSeconds(seconds);
    }

    @Nested
    class Listings {
        @Test
        void aCopyIsTheAttemptsOwnUnderItsIdOnAClusterItHoldsAndOnlyOnTheWinnerOnceOneIsChosen() {
            DispatchAttempt attempt = dispatchedTo("east", "west");

            assertThat(attempt.ownsCopy("a1", "east")).isTrue();
            assertThat(attempt.ownsCopy("a0", "east")).as("another attempt's copy").isFalse();
            assertThat(attempt.ownsCopy("a1", "north")).as("a cluster without a copy").isFalse();
            attempt.admittedOn("west");
            assertThat(attempt.ownsCopy("a1", "east")).as("a loser, once the winner is chosen").isFalse();
            assertThat(attempt.ownsCopy("a1", "west")).isTrue();
        }

        @Test
        void aCreateStillInFlightNeedNotBeListed() {
            DispatchAttempt attempt = dispatchedTo("east");

            assertThat(attempt.listingMustShow("east", at(30))).isFalse();
        }

        @Test
        void onlyAListingStartedAfterTheCreateWasAnsweredMustShowIt() {
            DispatchAttempt attempt = dispatchedTo("east");
            attempt.createAnswered("east", at(10));

            assertThat(attempt.listingMustShow("east", at(9))).isFalse();
            assertThat(attempt.listingMustShow("east", at(10))).isFalse();
            assertThat(attempt.listingMustShow("east", at(11))).isTrue();
            assertThat(attempt.isConfirmed("east")).isTrue();
        }

        @Test
        void aRecoveredCopyThisManagerNeverSentIsHeldToEveryListing() {
            DispatchAttempt attempt = DispatchAttempt.recovered("a1", "east", false, 2, LEASE, T0);

            assertThat(attempt.listingMustShow("east", T0.minusSeconds(60))).isTrue();
            assertThat(attempt.sentCreateTo("east")).isFalse();
            assertThat(attempt.isConfirmed("east")).isFalse();
            assertThat(DispatchAttempt.recovered("a1", "east", true, 2, LEASE, T0).isConfirmed("east")).isTrue();
        }

        @Test
        void missedListingsAreCountedInARowAndStartOverWhenAListingAccountsForTheCopy() {
            DispatchAttempt attempt = dispatchedTo("east", "west");

            assertThat(attempt.missedListing("east")).isEqualTo(1);
            assertThat(attempt.missedListing("east")).isEqualTo(2);
            assertThat(attempt.missedListing("west")).as("counted per cluster").isEqualTo(1);
            attempt.listingAccounted("east");
            assertThat(attempt.missedListing("east")).isEqualTo(1);
        }

        @Test
        void aListingConfirmsTheCopyAndKeepsItsLatestReport() {
            DispatchAttempt attempt = dispatchedTo("east");
            attempt.listed("east", new CopyReport("east", "Pending", "waiting for room"));
            attempt.listed("east", null);

            assertThat(attempt.isConfirmed("east")).isTrue();
            assertThat(attempt.report("east").phase()).as("a listing without a report keeps the last one").isEqualTo("Pending");
            assertThat(attempt.report("west").phase()).as("never reported").isNull();
        }

        @Test
        void aListingOfAClusterWithoutACopyChangesNothing() {
            DispatchAttempt attempt = dispatchedTo("east");
            attempt.listed("west", new CopyReport("west", "Pending", null));

            assertThat(attempt.isConfirmed("west")).isFalse();
            assertThat(attempt.report("west").phase()).isNull();
        }
    }

    @Nested
    class LeaseStamps {
        @Test
        void theLastStampIsTheLatestRenewalSentThere() {
            DispatchAttempt attempt = dispatchedTo("east", "west");
            attempt.renewalStarted("east", at(20));
            attempt.stamped("west", at(25));

            assertThat(attempt.lastStamp("east", at(90))).isEqualTo(at(20));
            assertThat(attempt.lastStamp("west", at(90))).isEqualTo(at(25));
            assertThat(attempt.leaseGoneAt("east", MARGIN, at(90))).isEqualTo(at(20).plus(LEASE).plus(MARGIN));
        }

        @Test
        void withoutAStampTheDispatchTimeCountsAndWithoutADispatchNow() {
            DispatchAttempt dispatched = DispatchAttempt.dispatched("a1", 1, LEASE, REQUEST, at(3));
            DispatchAttempt adopted = DispatchAttempt.adopted("a2", "east", LEASE, at(7));

            assertThat(dispatched.lastStamp("north", at(50))).isEqualTo(at(3));
            assertThat(adopted.lastStamp("east", at(50))).isEqualTo(at(7));
            assertThat(adopted.lastStamp("north", at(50))).isEqualTo(at(50));
        }

        @Test
        void aCommitIsALeaseStampToo() {
            DispatchAttempt attempt = dispatchedTo("east");
            attempt.commitSent("east", at(40));

            assertThat(attempt.lastStamp("east", at(90))).isEqualTo(at(40));
        }

        @Test
        void theExpiredStampIsOneLeaseAndASecondAgo() {
            assertThat(dispatchedTo("east").expiredStamp(at(100))).isEqualTo(at(100).minus(LEASE).minusSeconds(1));
        }
    }

    @Nested
    class Renewals {
        @Test
        void aRenewalIsInFlightUntilItsAnswer() {
            DispatchAttempt attempt = dispatchedTo("east");
            attempt.renewalStarted("east", at(20));

            assertThat(attempt.renewing("east")).isTrue();
            assertThat(attempt.renewalInFlight()).isTrue();
            attempt.renewalSucceeded("east");
            assertThat(attempt.renewalInFlight()).isFalse();
            assertThat(attempt.renewalsToRetry()).isEmpty();
        }

        @Test
        void aFailedRenewalIsRetriedUntilOneSucceeds() {
            DispatchAttempt attempt = dispatchedTo("east", "west");
            attempt.renewalStarted("east", at(20));
            attempt.renewalFailed("east");

            assertThat(attempt.renewing("east")).isFalse();
            assertThat(attempt.renewalsToRetry()).containsExactly("east");
            attempt.renewalStarted("east", at(21));
            attempt.renewalSucceeded("east");
            assertThat(attempt.renewalsToRetry()).isEmpty();
        }

        @Test
        void aCopyFoundGoneIsNeitherRenewingNorRetried() {
            DispatchAttempt attempt = dispatchedTo("east");
            attempt.renewalStarted("east", at(20));
            attempt.renewalFoundNoCopy("east");

            assertThat(attempt.renewalInFlight()).isFalse();
            assertThat(attempt.renewalsToRetry()).isEmpty();
        }

        @Test
        void aRenewalThatFailsAfterItsClusterWasDroppedIsNotRetried() {
            DispatchAttempt attempt = dispatchedTo("east", "west");
            attempt.renewalStarted("west", at(20));
            attempt.dropCluster("west");
            attempt.renewalFailed("west");

            assertThat(attempt.renewalsToRetry()).isEmpty();
            assertThat(attempt.renewalInFlight()).isFalse();
        }
    }

    @Nested
    class Drops {
        @Test
        void droppingAClusterForgetsWhatWasKnownOfItsCopy() {
            DispatchAttempt attempt = dispatchedTo("east", "west");
            attempt.reserved("west", at(5));
            attempt.missedListing("west");
            attempt.renewalStarted("west", at(20));
            attempt.renewalFailed("west");
            attempt.listed("west", new CopyReport("west", "Reserved", null));

            attempt.dropCluster("west");

            assertThat(attempt.clusters()).containsExactly("east");
            assertThat(attempt.copies().reservedSince()).doesNotContainKey("west");
            assertThat(attempt.renewalsToRetry()).isEmpty();
            assertThat(attempt.report("west").phase()).isNull();
            attempt.createSent("west", at(30));
            assertThat(attempt.missedListing("west")).as("a copy sent there again starts a new count").isEqualTo(1);
        }

        @Test
        void whatWasSentThereIsKeptForTheHoldThatReadsIt() {
            DispatchAttempt attempt = dispatchedTo("east", "west");
            attempt.renewalStarted("west", at(20));

            attempt.dropCluster("west");

            assertThat(attempt.sentCreateTo("west")).isTrue();
            assertThat(attempt.leaseGoneAt("west", MARGIN, at(90))).isEqualTo(at(20).plus(LEASE).plus(MARGIN));
        }

        @Test
        void theClustersAreReadOnlyFromOutside() {
            DispatchAttempt attempt = dispatchedTo("east");

            assertThatThrownBy(() -> attempt.clusters().add("west")).isInstanceOf(UnsupportedOperationException.class);
            assertThatThrownBy(() -> attempt.clusters().remove("east")).isInstanceOf(UnsupportedOperationException.class);
        }

        @Test
        void theFirstClusterToAdmitWinsAndTheOthersAreDropped() {
            DispatchAttempt attempt = dispatchedTo("east", "west", "north");
            attempt.keepOnlyWinner();
            assertThat(attempt.clusters()).as("nothing happens before a winner").containsExactly("east", "west", "north");

            attempt.admittedOn("west");
            assertThat(attempt.clustersBut("west")).containsExactly("east", "north");
            attempt.keepOnlyWinner();

            assertThat(attempt.winner()).isEqualTo("west");
            assertThat(attempt.clusters()).containsExactly("west");
        }
    }

    @Nested
    class Commits {
        private final MutableClock clock = new MutableClock(T0);
        private final CommitDecider decider = new CommitDecider(Duration.ofSeconds(10));

        @Test
        void theFirstReservationIsCommittedAndTheOthersWithdrawnOnlyOnceTheCommitIsConfirmed() {
            DispatchAttempt attempt = dispatchedTo("east", "west", "north");
            attempt.reserved("west", at(2));
            attempt.reserved("north", at(1));
            attempt.reserved("north", at(4));

            assertThat(attempt.copies().reservedSince()).as("the first report counts").containsEntry("north", at(1));
            String chosen = decider.decide(attempt.copies(), clock.instant()).commit();
            assertThat(chosen).isEqualTo("north");
            assertThat(attempt.commitSent(chosen, at(5))).as("chosen now: recorded before the commit is sent").isTrue();
            assertThat(attempt.commitSent(chosen, at(15))).as("a resend chooses nothing new").isFalse();
            assertThat(attempt.copies().commitSentAt()).isEqualTo(at(15));
            assertThat(decider.decide(attempt.copies(), clock.instant()).withdraw()).as("nothing withdrawn before the confirmation").isEmpty();

            attempt.commitConfirmedBy("north");

            assertThat(attempt.winner()).isEqualTo("north");
            assertThat(attempt.commitConfirmed()).isTrue();
            assertThat(decider.decide(attempt.copies(), clock.instant()).withdraw()).containsExactly("east", "west");
            attempt.keepOnlyWinner();
            assertThat(attempt.clusters()).containsExactly("north");
            assertThat(attempt.copies().reservedSince()).containsOnlyKeys("north");
        }

        @Test
        void aRefusedCommitDropsTheClusterAndLetsTheNextReservationWin() {
            DispatchAttempt attempt = dispatchedTo("east", "west");
            attempt.reserved("east", at(1));
            attempt.reserved("west", at(2));
            attempt.commitSent("east", at(3));

            attempt.commitRefused("east");

            assertThat(attempt.committedTo()).isNull();
            assertThat(attempt.copies().commitSentAt()).isNull();
            assertThat(attempt.clusters()).containsExactly("west");
            assertThat(decider.decide(attempt.copies(), clock.instant()).commit()).isEqualTo("west");
            assertThat(attempt.commitSent("west", at(4))).isTrue();
        }

        @Test
        void aCopyListedCommittedRejoinsAsTheConfirmedWinner() {
            DispatchAttempt attempt = DispatchAttempt.recovered("a1", "east", false, 1, LEASE, T0);

            attempt.listedCommitted("west");

            assertThat(attempt.clusters()).containsExactly("east", "west");
            assertThat(attempt.winner()).isEqualTo("west");
            assertThat(attempt.committedTo()).isEqualTo("west");
            assertThat(attempt.isConfirmed("west")).isTrue();
        }

        @Test
        void aReservationOfAClusterWithoutACopyIsIgnored() {
            DispatchAttempt attempt = dispatchedTo("east");
            attempt.reserved("west", at(1));

            assertThat(attempt.copies().reservedSince()).isEmpty();
        }
    }

    @Nested
    class Strategies {
        @Test
        void defaultDispatchSendsRunnableCopiesAndNeverWidens() {
            DispatchAttempt attempt = dispatchedTo();

            assertThat(attempt.follow(DispatchStrategy.DEFAULT, List.of("east", "west"))).isFalse();
            assertThat(attempt.firstDispatch()).isNull();
        }

        @Test
        void allAtOnceSendsReservationsAndNeverWidens() {
            DispatchAttempt attempt = dispatchedTo();

            assertThat(attempt.follow(DispatchStrategy.ALL_AT_ONCE, List.of("east", "west"))).isTrue();
            assertThat(attempt.firstDispatch()).isNull();
        }

        @Test
        void incrementalAndExternalSendReservationsAndKeepWhatTheyWidenWith() {
            for (DispatchStrategy strategy : List.of(DispatchStrategy.INCREMENTAL, DispatchStrategy.EXTERNAL)) {
                DispatchAttempt attempt = DispatchAttempt.dispatched("a1", 1, LEASE, REQUEST, at(8));

                assertThat(attempt.follow(strategy, List.of("east", "west"))).isTrue();
                assertThat(attempt.strategy()).isEqualTo(strategy);
                assertThat(attempt.firstDispatch()).isEqualTo(at(8));
                assertThat(attempt.configClusters()).containsExactly("east", "west");
            }
        }
    }

    @Nested
    class StartTimeout {
        @Test
        void theAttemptAsTheStartTimeoutSeesIt() {
            DispatchAttempt attempt = dispatchedTo("east", "west");
            attempt.listed("west", new CopyReport("west", "Pending", "no room"));

            StartingAttempt starting = attempt.starting();

            assertThat(starting.attemptId()).isEqualTo("a1");
            assertThat(starting.dispatchedAt()).isEqualTo(T0);
            assertThat(starting.admitted()).isFalse();
            assertThat(starting.busy()).isFalse();
            assertThat(starting.copies()).containsExactly(new CopyReport("east", null, null), new CopyReport("west", "Pending", "no room"));
        }

        @Test
        void aRecoveredAttemptCountsFromWhenThisManagerKnewIt() {
            assertThat(DispatchAttempt.recovered("a1", "east", true, 1, LEASE, at(9)).starting().dispatchedAt()).isEqualTo(at(9));
        }

        @Test
        void anAttemptBeingDrainedOrWithdrawnIsBusyUntilThatIsUndone() {
            DispatchAttempt attempt = dispatchedTo("east");
            attempt.drain();
            assertThat(attempt.starting().busy()).isTrue();
            attempt.drainFailed();
            assertThat(attempt.starting().busy()).isFalse();
            attempt.withdrawForStartTimeout();
            assertThat(attempt.withdrawing()).isTrue();
            assertThat(attempt.starting().busy()).isTrue();
            attempt.withdrawalCalledOff();
            assertThat(attempt.starting().busy()).isFalse();
        }

        @Test
        void anAdmittedCopyMarksTheAttemptAdmitted() {
            DispatchAttempt attempt = dispatchedTo("east");
            attempt.admittedOn("east");

            assertThat(attempt.starting().admitted()).isTrue();
        }
    }
}
