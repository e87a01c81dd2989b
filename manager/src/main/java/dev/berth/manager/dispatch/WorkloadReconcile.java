package dev.berth.manager.dispatch;

import dev.berth.protocol.Conditions.CheckStates;
import java.util.ArrayList;
import java.util.List;

/**
 * What reconciling one workload means (an event named it, its retry came due, or the periodic resync): the
 * event "workload changed" in, the commands for the edge out. Where admission says the workload stands, with its
 * current attempt and its MultiKueue check, decides:
 * <ul>
 *   <li>evicted while it still holds quota (preempted, deactivated, held): its copies are stopped before the quota is
 *       released ({@code EvictedCopyStops});</li>
 *   <li>deleted, or no longer holding quota (finished, requeued): what was remembered of it is forgotten and its
 *       current attempt abandoned (its copies withdrawn);</li>
 *   <li>holding quota with the check Pending and no current attempt: it is placed, unless an old attempt's fence holds
 *       it, its Workload is gone, it has nothing to run or its MultiKueueConfig is missing
 *       ({@link #placementBlocked}); the placement itself is {@link PlacementPolicy}'s;</li>
 *   <li>anything else (an attempt is current, the check is Ready, Retry or Rejected, or there is none): nothing.</li>
 * </ul>
 * Pure; the state thread only.
 */
public final class WorkloadReconcile {
    /** Where admission says the workload stands. */
    public enum Standing {
        /** No status: the Workload was deleted. */
        DELETED,
        /** Not holding quota, or finished. */
        NOT_HOLDING_QUOTA,
        /** Evicted while it still holds quota: its copies must stop before the quota is released. */
        AWAITING_COPY_STOP,
        /** Holding quota, neither evicted nor finished. */
        HOLDING_QUOTA
    }

    /** What the edge does, in order. */
    public sealed interface Command permits StopWaiting, StopCopies, ForgetWorkload, QuotaGone, Abandon, Place {}

    /** The workload no longer waits for capacity. */
    public record StopWaiting() implements Command {}

    /** Stop the evicted workload's copies ({@code current} may be null: none is current) and release its quota once nothing holds it. */
    public record StopCopies(DispatchAttempt current) implements Command {}

    /** The workload is deleted: forget its last placement, its stopping copies and its start-timeout withdrawals. */
    public record ForgetWorkload() implements Command {}

    /** The workload holds no quota any more ({@code deleted}: it is gone): its unserved-flavor retry ends. */
    public record QuotaGone(boolean deleted) implements Command {}

    /** The attempt is no longer current: its copies are withdrawn. */
    public record Abandon(DispatchAttempt attempt, String why) implements Command {}

    /** Place the workload on a cluster (unless {@link #placementBlocked} says why not). */
    public record Place() implements Command {}

    private WorkloadReconcile() {}

    /**
     * @param current          the workload's current attempt, or null
     * @param checkState       the state of the workload's MultiKueue admission check, or null when it has none
     */
    public static List<Command> reconcile(Standing standing, DispatchAttempt current, String checkState) {
        List<Command> commands = new ArrayList<>();
        switch (standing) {
            case AWAITING_COPY_STOP -> {
                commands.add(new StopWaiting());
                commands.add(new StopCopies(current));
            }
            case DELETED, NOT_HOLDING_QUOTA -> {
                boolean deleted = standing == Standing.DELETED;
                commands.add(new StopWaiting());
                if (deleted) commands.add(new ForgetWorkload());
                commands.add(new QuotaGone(deleted));
                if (current != null) commands.add(new Abandon(current, deleted ? "workload deleted" : "workload no longer holds quota"));
            }
            case HOLDING_QUOTA -> {
                if (checkState != null && current == null && CheckStates.PENDING.equals(checkState)) commands.add(new Place());
            }
        }
        return commands;
    }

    /** Why a workload that may be placed waits instead. */
    public sealed interface Blocked permits HeldByFence, WorkloadGone, NothingToRun, ConfigMissing {
        /** The check's message while it waits; null when the check is left as it is. */
        String message();
    }

    /** An old attempt's fence holds the workload: its message is the hold's. */
    public record HeldByFence(String message) implements Blocked {}

    /** The Workload object is gone (its deletion's event follows): the check is left as it is. */
    public record WorkloadGone() implements Blocked {
        @Override
        public String message() {
            return null;
        }
    }

    /** The workload has no pod to run (every pod set has count 0). */
    public record NothingToRun(String message) implements Blocked {}

    /** The check names a MultiKueueConfig that does not exist. */
    public record ConfigMissing(String configName) implements Blocked {
        @Override
        public String message() {
            return "MultiKueueConfig " + configName + " not found";
        }
    }

    /**
     * Why the workload, which {@link #reconcile} would place, waits instead, in this order; null when it may be placed.
     *
     * @param fenceHold         the message of the fence an old attempt holds it with, or null
     * @param nothingToRunMessage the check's message when the Workload has nothing to run, else null
     */
    public static Blocked placementBlocked(String fenceHold, boolean workloadFound, String nothingToRunMessage, String configName,
                                           boolean configFound) {
        if (fenceHold != null) return new HeldByFence(fenceHold);
        if (!workloadFound) return new WorkloadGone();
        if (nothingToRunMessage != null) return new NothingToRun(nothingToRunMessage);
        if (!configFound) return new ConfigMissing(configName);
        return null;
    }
}
