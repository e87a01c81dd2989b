package dev.berth.manager.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.dispatch.ListingCommand.Adopted;
import dev.berth.manager.dispatch.ListingCommand.DeleteStale;
import dev.berth.manager.dispatch.ListingCommand.DropCluster;
import dev.berth.manager.dispatch.ListingCommand.ListedCommitted;
import dev.berth.manager.dispatch.ListingCommand.ListedWithdrawals;
import dev.berth.manager.dispatch.ListingCommand.Mirror;
import dev.berth.manager.dispatch.ListingCommand.StampEpoch;
import dev.berth.manager.dispatch.ListingCommand.SupersedeFences;
import dev.berth.manager.dispatch.ListingDecision.Listing;
import dev.berth.manager.dispatch.ListingDecision.Reading;
import dev.berth.manager.dispatch.StartWithdrawalPolicy.CopyReport;
import dev.berth.manager.model.WorkloadKey;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The listing decisions as a table: each row sets up the attempts and what admission says, lists a cluster (or
 * lists it twice) and expects the commands of the last listing, in order. Time is passed in, starting at T0.
 */
class ListingDecisionTest {
    private static final Instant T0 = Instant.parse("2026-12-01T12:00:00Z");
    private static final long EPOCH = 7;
    private static final Duration LEASE = Duration.ofSeconds(60);
    private static final Duration REPORT_LAG = Duration.ofSeconds(3);
    private static final WorkloadKey TRAIN = WorkloadKey.of("team", "train");
    private static final String EAST = "east";
    private static final String WEST = "west";

    /** The manager's side of a row: its attempts, what admission says, and the decision. */
    static final class World implements ListingFacts {
        final CurrentAttempts attempts = new CurrentAttempts();
        final Set<String> retired = new HashSet<>();
        final Set<WorkloadKey> holdingQuota = new HashSet<>();
        final Set<WorkloadKey> admittedRemotely = new HashSet<>();
        final ListingDecision decision = new ListingDecision(EPOCH, REPORT_LAG);

        @Override
        public boolean retired(String attemptId) {
            return retired.contains(attemptId);
        }

        @Override
        public boolean mayAdopt(WorkloadKey key) {
            return holdingQuota.contains(key);
        }

        @Override
        public boolean neverAdmittedRemotely(WorkloadKey key) {
            return !admittedRemotely.contains(key);
        }

        /** An attempt of TRAIN this manager dispatched at T0 to the clusters, their creates answered at T0+1s. */
        DispatchAttempt dispatched(String id, String... clusters) {
            DispatchAttempt attempt = DispatchAttempt.dispatched(id, 1, LEASE, null, T0);
            for (String cluster : clusters) {
                attempt.createSent(cluster, T0);
                attempt.createAnswered(cluster, at(1));
            }
            attempts.begin(TRAIN, attempt);
            return attempt;
        }

        /** Lists the cluster at {@code now}, the listing sent at {@code startedAt} (null: no epoch reading). */
        List<String> list(String cluster, Instant startedAt, Instant now, ListedCopy... copies) {
            Reading reading = startedAt == null ? null : new Reading(3, startedAt, startedAt);
            return decision.decide(new Listing(cluster, reading, List.of(copies)), attempts, this, now).stream()
                    .map(ListingDecisionTest::describe).toList();
        }

        List<String> list(String cluster, ListedCopy... copies) {
            return list(cluster, at(20), at(21), copies);
        }
    }

    record Row(String name, Consumer<World> given, java.util.function.Function<World, List<String>> when, List<String> then) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Row> rows() {
        return Stream.of(
                new Row("stale copy (an older attempt) deleted", w -> w.dispatched("a2", EAST),
                        w -> w.list(EAST, copy("a1", "Running")),
                        List.of("supersede east [a1]", "withdrawals east seen [] reports []", "delete train east a1")),
                new Row("copy on a cluster the attempt no longer holds deleted", w -> w.dispatched("a1", WEST),
                        w -> w.list(EAST, copy("a1", "Running")),
                        List.of("supersede east [a1]", "withdrawals east seen [train] reports [train]", "delete train east a1")),
                new Row("unknown copy adopted while the workload holds quota", w -> w.holdingQuota.add(TRAIN),
                        w -> w.list(EAST, copy("a1", "Running")),
                        List.of("supersede east [a1]", "withdrawals east seen [] reports []", "adopt train east a1", "mirror train east Running")),
                new Row("unknown copy of a workload without quota deleted, not adopted", w -> {},
                        w -> w.list(EAST, copy("a1", "Running")),
                        List.of("supersede east [a1]", "withdrawals east seen [] reports []", "delete train east a1")),
                new Row("retired attempt never adopted", w -> {
                            w.holdingQuota.add(TRAIN);
                            w.retired.add("a1");
                        },
                        w -> w.list(EAST, copy("a1", "Running")),
                        List.of("supersede east [a1]", "withdrawals east seen [] reports []", "delete train east a1")),
                new Row("uncommitted reservation never adopted", w -> w.holdingQuota.add(TRAIN),
                        w -> w.list(EAST, reservation("a1", true, "Reserved")),
                        List.of("supersede east [a1]", "withdrawals east seen [] reports []", "delete train east a1")),
                new Row("never-admitted copy missing from 2 listings dropped, last copy gone", w -> w.dispatched("a1", EAST),
                        w -> {
                            w.list(EAST);
                            return w.list(EAST, at(30), at(31));
                        },
                        List.of("drop train east a1 last copy gone", "supersede east []", "withdrawals east seen [] reports []")),
                new Row("missing from 2 listings with another copy left: dropped, not gone", w -> w.dispatched("a1", EAST, WEST),
                        w -> {
                            w.list(EAST);
                            return w.list(EAST, at(30), at(31));
                        },
                        List.of("drop train east a1", "supersede east []", "withdrawals east seen [] reports []")),
                new Row("missing from 1 listing only: kept", w -> w.dispatched("a1", EAST),
                        w -> w.list(EAST),
                        List.of("supersede east []", "withdrawals east seen [] reports []")),
                new Row("missing copy once admitted remotely kept (its end may not be mirrored yet)", w -> {
                            w.dispatched("a1", EAST);
                            w.admittedRemotely.add(TRAIN);
                        },
                        w -> {
                            w.list(EAST);
                            return w.list(EAST, at(30), at(31));
                        },
                        List.of("supersede east []", "withdrawals east seen [] reports []")),
                new Row("a listing that started before the create was answered does not count", w -> w.dispatched("a1", EAST),
                        w -> {
                            w.list(EAST, at(1), at(21));
                            w.list(EAST, at(30), at(31));
                            return w.list(EAST, at(1), at(41));
                        },
                        List.of("supersede east []", "withdrawals east seen [] reports []")),
                new Row("without an epoch reading, the listing counts as sent a report lag ago", w -> w.dispatched("a1", EAST),
                        w -> {
                            w.list(EAST, null, at(3));
                            return w.list(EAST, null, at(4));
                        },
                        List.of("withdrawals east seen [] reports []")),
                new Row("an attempt known for less than the report lag is not looked for", w -> w.dispatched("a1", EAST),
                        w -> {
                            w.list(EAST, at(1).plusMillis(500), at(2));
                            return w.list(EAST, at(1).plusMillis(600), at(2));
                        },
                        List.of("supersede east []", "withdrawals east seen [] reports []")),
                new Row("a draining attempt missing from listings is left to its drain", w -> w.dispatched("a1", EAST).drain(),
                        w -> {
                            w.list(EAST);
                            return w.list(EAST, at(30), at(31));
                        },
                        List.of("supersede east []", "withdrawals east seen [] reports []")),
                new Row("a withdrawn copy only confirmed: no restamp, no mirror", w -> w.dispatched("a1", EAST).withdrawForStartTimeout(),
                        w -> w.list(EAST, epoch(copy("a1", "Pending"), 5)),
                        List.of("supersede east [a1]", "withdrawals east seen [train] reports [train]")),
                new Row("old epoch restamped", w -> w.dispatched("a1", EAST),
                        w -> w.list(EAST, epoch(copy("a1", "Running"), 6)),
                        List.of("supersede east [a1]", "withdrawals east seen [train] reports [train]", "stamp train east a1",
                                "mirror train east Running")),
                new Row("committed reservation seen in a listing confirms the commit", w -> w.dispatched("a1", EAST, WEST),
                        w -> w.list(EAST, reservation("a1", false, "Admitted")),
                        List.of("supersede east [a1]", "withdrawals east seen [train] reports [train]", "committed train east a1",
                                "mirror train east Admitted")),
                new Row("winner-only mirror: a loser's copy is deleted, not mirrored", w -> w.dispatched("a1", EAST, WEST).admittedOn(WEST),
                        w -> w.list(EAST, copy("a1", "Admitted")),
                        List.of("supersede east [a1]", "withdrawals east seen [train] reports [train]", "delete train east a1")),
                new Row("another attempt's status is not mirrored nor reported to withdrawals", w -> w.dispatched("a1", EAST),
                        w -> w.list(EAST, status(copy("a1", "Running"), "a0")),
                        List.of("supersede east [a1]", "withdrawals east seen [train] reports []")),
                new Row("a copy without a report is confirmed, not mirrored", w -> w.dispatched("a1", EAST),
                        w -> w.list(EAST, copy("a1", null)),
                        List.of("supersede east [a1]", "withdrawals east seen [train] reports []")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void listing(Row row) {
        World world = new World();
        row.given().accept(world);

        assertThat(row.when().apply(world)).isEqualTo(row.then());
    }

    @Test
    void theDecisionRecordsWhatTheListingShows() {
        World world = new World();
        DispatchAttempt withdrawn = world.dispatched("a1", EAST);
        withdrawn.withdrawForStartTimeout();

        world.list(EAST, copy("a1", "Pending"));

        assertThat(withdrawn.report(EAST).phase()).as("a withdrawn copy's report is kept").isEqualTo("Pending");
        assertThat(withdrawn.isConfirmed(EAST)).isTrue();
    }

    @Test
    void aDroppedClusterLeavesTheAttemptAndAnAdoptedOneJoinsTheAttempts() {
        World world = new World();
        DispatchAttempt attempt = world.dispatched("a1", EAST, WEST);
        world.list(EAST);
        world.list(EAST, at(30), at(31));
        assertThat(attempt.clusters()).containsExactly(WEST);

        World restarted = new World();
        restarted.holdingQuota.add(TRAIN);
        restarted.list(EAST, copy("a1", "Running"));
        assertThat(restarted.attempts.get(TRAIN).id()).isEqualTo("a1");
        assertThat(restarted.attempts.get(TRAIN).clusters()).containsExactly(EAST);
    }

    @Test
    void aCommittedCopyOfTheListedClusterBecomesTheWinner() {
        World world = new World();
        DispatchAttempt attempt = world.dispatched("a1", EAST, WEST);

        world.list(EAST, reservation("a1", false, "Admitted"));

        assertThat(attempt.winner()).isEqualTo(EAST);
        assertThat(attempt.commitConfirmed()).isTrue();
    }

    @Test
    void finishedFirstMirrorsOnlyTheCurrentWinnersFinishedReport() {
        World world = new World();
        DispatchAttempt attempt = world.dispatched("a1", EAST, WEST);

        assertThat(world.decision.finished(EAST, copy("a1", "Running"), world.attempts)).as("not finished").isNull();
        assertThat(world.decision.finished(EAST, copy("a0", "Succeeded"), world.attempts)).as("an old attempt's").isNull();
        assertThat(world.decision.finished(EAST, status(copy("a1", "Succeeded"), "a0"), world.attempts)).as("another attempt's status").isNull();
        attempt.admittedOn(WEST);
        assertThat(world.decision.finished(EAST, copy("a1", "Failed"), world.attempts)).as("not the winner").isNull();
        assertThat(world.decision.finished(WEST, copy("a1", "Failed"), world.attempts)).isSameAs(attempt);
        assertThat(attempt.report(WEST).phase()).isEqualTo("Failed");
        attempt.withdrawForStartTimeout();
        assertThat(world.decision.finished(WEST, copy("a1", "Failed"), world.attempts)).as("being withdrawn").isNull();
    }

    // ---- building copies and reading commands ---------------------------------------------------------

    private static Instant at(int seconds) {
        return T0.plusSeconds(seconds);
    }

    private static ListedCopy copy(String attemptId, String phase) {
        CopyReport report = phase == null ? null : new CopyReport(EAST, phase, null);
        return new ListedCopy(TRAIN, attemptId, null, false, EPOCH, 60, report, phase == null ? null : attemptId, "1");
    }

    private static ListedCopy reservation(String attemptId, boolean awaitsCommit, String phase) {
        ListedCopy copy = copy(attemptId, phase);
        return new ListedCopy(copy.key(), attemptId, awaitsCommit, awaitsCommit, EPOCH, 60, copy.report(), attemptId, "1");
    }

    private static ListedCopy epoch(ListedCopy copy, long fencingEpoch) {
        return new ListedCopy(copy.key(), copy.attemptId(), copy.reservation(), copy.awaitsCommit(), fencingEpoch, copy.leaseSeconds(),
                copy.report(), copy.statusAttemptId(), copy.resourceVersion());
    }

    private static ListedCopy status(ListedCopy copy, String statusAttemptId) {
        return new ListedCopy(copy.key(), copy.attemptId(), copy.reservation(), copy.awaitsCommit(), copy.fencingEpoch(), copy.leaseSeconds(),
                copy.report(), statusAttemptId, copy.resourceVersion());
    }

    private static String describe(ListingCommand command) {
        if (command instanceof DropCluster drop) {
            return "drop " + drop.key().name() + " " + drop.cluster() + " " + drop.attempt().id() + (drop.lastCopyGone() ? " last copy gone" : "");
        } else if (command instanceof SupersedeFences supersede) {
            return "supersede " + supersede.cluster() + " " + sorted(supersede.poll().listedAttemptIds());
        } else if (command instanceof ListedWithdrawals listed) {
            return "withdrawals " + listed.cluster() + " seen " + names(listed.seen()) + " reports " + names(listed.reports().keySet());
        } else if (command instanceof Adopted adopted) {
            return "adopt " + adopted.key().name() + " " + adopted.cluster() + " " + adopted.attempt().id();
        } else if (command instanceof ListedCommitted committed) {
            return "committed " + committed.key().name() + " " + committed.cluster() + " " + committed.attempt().id();
        } else if (command instanceof DeleteStale stale) {
            return "delete " + stale.key().name() + " " + stale.cluster() + " " + stale.attemptId();
        } else if (command instanceof StampEpoch stamp) {
            return "stamp " + stamp.key().name() + " " + stamp.cluster() + " " + stamp.attempt().id();
        } else if (command instanceof Mirror mirror) {
            return "mirror " + mirror.key().name() + " " + mirror.cluster() + " " + mirror.copy().report().phase();
        }
        throw new IllegalArgumentException(String.valueOf(command));
    }

    private static List<String> names(Set<WorkloadKey> keys) {
        return sorted(keys.stream().map(WorkloadKey::name).toList());
    }

    private static List<String> sorted(java.util.Collection<String> values) {
        List<String> list = new ArrayList<>(values);
        list.sort(null);
        return list;
    }
}
