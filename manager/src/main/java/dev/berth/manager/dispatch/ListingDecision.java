package dev.berth.manager.dispatch;

import dev.berth.manager.dispatch.ListingCommand.Adopted;
import dev.berth.manager.dispatch.ListingCommand.DeleteStale;
import dev.berth.manager.dispatch.ListingCommand.DropCluster;
import dev.berth.manager.dispatch.ListingCommand.ListedCommitted;
import dev.berth.manager.dispatch.ListingCommand.ListedWithdrawals;
import dev.berth.manager.dispatch.ListingCommand.Mirror;
import dev.berth.manager.dispatch.ListingCommand.StampEpoch;
import dev.berth.manager.dispatch.ListingCommand.SupersedeFences;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.protocol.crd.RemoteWorkloadPhase;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A cluster's listing of the copies it holds, decided: an attempt recorded there but missing from its listings
 * is dropped from the cluster (and dispatched again when no copy is left); a listed copy that is not current
 * there is deleted; one a restarted manager has no record of is adopted while its workload still holds quota;
 * a copy listed as committed confirms the commit; an older manager's epoch is stamped over; and what the cluster
 * reports of a current copy is mirrored. It applies the attempts' transitions itself and hands the edge its
 * commands, in order, through {@code out}: the edge runs each before the next is decided, since what it runs
 * (a mirror, a commit's consequences, a withdrawal) may still change the attempts the next decision reads.
 */
public final class ListingDecision {

    /** Listings in a row that must miss an attempt before it counts as gone from a cluster. */
    static final int MISSED_LISTINGS_TO_DROP = 2;

    /**
     * A listing of one cluster.
     *
     * @param reading what the agent's epoch poll before the listing read, or null when none was read
     * @param copies  the listed copies, without those {@link #finished} handled since the last listing
     */
    public record Listing(String cluster, Reading reading, List<ListedCopy> copies) {
        public Listing {
            copies = List.copyOf(copies);
        }
    }

    /** The agent's epoch read at {@code readAt}, in the poll whose listing was sent at {@code listingStartedAt}. */
    public record Reading(long agentEpoch, Instant readAt, Instant listingStartedAt) {}

    private final long epoch;
    private final Duration reportLag;

    /**
     * @param epoch     this manager's fencing epoch: a copy stamped with an older one is stamped again
     * @param reportLag how long a report may lag behind: an attempt known for less is not looked for in listings,
     *                  and a listing whose start is unknown is taken as sent this long ago
     */
    public ListingDecision(long epoch, Duration reportLag) {
        this.epoch = epoch;
        this.reportLag = reportLag;
    }

    /** Decides the listing, collecting the commands (for tests, and edges that run them afterwards). */
    public List<ListingCommand> decide(Listing listing, CurrentAttempts attempts, ListingFacts facts, Instant now) {
        List<ListingCommand> commands = new ArrayList<>();
        listed(listing, attempts, facts, now, commands::add);
        return commands;
    }

    /** Decides the listing; {@code attempts} is the live map of current attempts (an adopted attempt is put there). */
    public void listed(Listing listing, CurrentAttempts attempts, ListingFacts facts, Instant now,
            Consumer<ListingCommand> out) {
        String cluster = listing.cluster();
        Set<WorkloadKey> seen = new HashSet<>();
        Set<String> attemptIds = new HashSet<>();
        for (ListedCopy copy : listing.copies()) {
            seen.add(copy.key());
            attemptIds.add(copy.attemptId());
        }
        Reading reading = listing.reading();
        // without the instant the listing was sent, take it as sent a report lag ago: a create answered since may be missing
        missing(cluster, seen, reading != null ? reading.listingStartedAt() : now.minus(reportLag), attempts, facts, now, out);
        if (reading != null) {
            out.accept(new SupersedeFences(cluster, new SupersededCreate.Poll(reading.agentEpoch(), reading.readAt(),
                    reading.listingStartedAt(), attemptIds)));
        }
        out.accept(withdrawals(cluster, listing.copies(), seen, attempts));
        for (ListedCopy copy : listing.copies()) {
            copy(cluster, copy, attempts, facts, now, out);
        }
    }

    /**
     * Mirrors only the finished reports (Succeeded, Failed) of current attempts on the cluster, as {@link #listed}
     * would: a report is the attempt's own ({@link DispatchAttempt#ownsCopy}: same attempt id, the cluster still one of
     * its copies and the winner if one was chosen; not being withdrawn), so an old attempt's report never finishes a newer
     * one. Returns the copy's attempt, its report recorded, when its report is to be mirrored; else null.
     */
    public DispatchAttempt finished(String cluster, ListedCopy copy, CurrentAttempts attempts) {
        String phase = copy.report() == null ? null : copy.report().phase();
        if (!RemoteWorkloadPhase.SUCCEEDED.equals(phase) && !RemoteWorkloadPhase.FAILED.equals(phase)) return null;
        DispatchAttempt attempt = attempts.get(copy.key());
        if (attempt == null || !attempt.ownsCopy(copy.attemptId(), cluster) || attempt.withdrawing() || !copy.statusIsOwn()) return null;
        attempt.listed(cluster, copy.report());
        return attempt;
    }

    /**
     * An attempt recorded as dispatched to a cluster whose listings do not show it, and never admitted there
     * (a leader that died between recording a dispatch and creating it, or the object deleted in the worker
     * cluster before it ran), is not running there: nothing there can run it without its RemoteWorkload. After
     * {@link #MISSED_LISTINGS_TO_DROP} listings in a row, each made well after the manager knew the attempt and,
     * where this manager sent the create, started after the cluster answered it, the cluster is dropped from the
     * attempt, and a workload left with no copy is dispatched again under a new attempt id, once the dropped copy's
     * lease has run out: a create still in flight (a slow network, a dead leader's last request) may yet arrive.
     */
    private void missing(String cluster, Set<WorkloadKey> listed, Instant listingStartedAt, CurrentAttempts attempts,
            ListingFacts facts, Instant now, Consumer<ListingCommand> out) {
        for (Map.Entry<WorkloadKey, DispatchAttempt> current : attempts.entries()) {
            WorkloadKey key = current.getKey();
            DispatchAttempt attempt = current.getValue();
            if (!attempt.clusters().contains(cluster) || attempt.draining() || attempt.withdrawing()) continue;
            if (listed.contains(key) || attempt.knownSince() == null || now.isBefore(attempt.knownSince().plus(reportLag))
                    || !attempt.listingMustShow(cluster, listingStartedAt)) {
                attempt.listingAccounted(cluster);
                continue;
            }
            int missed = attempt.missedListing(cluster);
            if (missed < MISSED_LISTINGS_TO_DROP || !facts.neverAdmittedRemotely(key)) continue;
            attempt.dropCluster(cluster);
            out.accept(new DropCluster(key, cluster, attempt, "attempt missing from the cluster's listings", attempt.clusters().isEmpty()));
        }
    }

    /** What the listing shows of the copies being withdrawn for not starting in time (their own attempt's status only). */
    private static ListedWithdrawals withdrawals(String cluster, List<ListedCopy> listed, Set<WorkloadKey> listedWorkloads,
            CurrentAttempts attempts) {
        Set<WorkloadKey> seen = new HashSet<>(listedWorkloads);
        Map<WorkloadKey, ListedCopy> reports = new HashMap<>();
        for (ListedCopy copy : listed) {
            DispatchAttempt attempt = attempts.get(copy.key());
            boolean ours = attempt != null && attempt.id().equals(copy.attemptId());
            if (ours && copy.report() != null && copy.statusIsOwn()) reports.put(copy.key(), copy);
            if (!ours) seen.remove(copy.key());
        }
        return new ListedWithdrawals(cluster, seen, reports);
    }

    /** One listed copy: adopted, committed, deleted as stale, or recorded; then restamped and mirrored. */
    private void copy(String cluster, ListedCopy copy, CurrentAttempts attempts, ListingFacts facts, Instant now,
            Consumer<ListingCommand> out) {
        WorkloadKey key = copy.key();
        String id = copy.attemptId();
        DispatchAttempt attempt = attempts.get(key);
        if (attempt == null) attempt = adopt(cluster, copy, attempts, facts, now, out);
        if (attempt != null && attempt.id().equals(id) && copy.committed() && !attempt.commitConfirmed()
                && (attempt.committedTo() == null || attempt.committedTo().equals(cluster))) {
            // committed earlier: its commit's answer was lost, or a previous leader's
            attempt.listedCommitted(cluster);
            out.accept(new ListedCommitted(key, cluster, attempt));
        }
        if (attempt == null || !attempt.ownsCopy(id, cluster)) {
            out.accept(new DeleteStale(key, cluster, id, "stale attempt"));
            return;
        }
        attempt.listed(cluster, copy.report());
        if (attempt.withdrawing()) return;
        if (copy.fencingEpoch() < epoch) out.accept(new StampEpoch(key, cluster, attempt));
        if (copy.reportsPhase()) out.accept(new Mirror(key, cluster, attempt, copy));
    }

    /** After a restart without a durable record: the attempt of a workload that still holds quota is kept. */
    private static DispatchAttempt adopt(String cluster, ListedCopy copy, CurrentAttempts attempts, ListingFacts facts,
            Instant now, Consumer<ListingCommand> out) {
        // an uncommitted reservation never started: withdrawing it (deleted as stale) is always safe, committing it may not be
        if (facts.retired(copy.attemptId()) || copy.awaitsCommit() || !facts.mayAdopt(copy.key())) return null;
        DispatchAttempt attempt = DispatchAttempt.adopted(copy.attemptId(), cluster, Duration.ofSeconds(Math.max(0, copy.leaseSeconds())), now);
        attempts.begin(copy.key(), attempt);
        out.accept(new Adopted(copy.key(), cluster, attempt));
        return attempt;
    }
}
