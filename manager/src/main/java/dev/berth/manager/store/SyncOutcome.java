package dev.berth.manager.store;

/**
 * Told once how a group's sync ended (pipelined group commit, {@link ObjectStore#inOneSyncThen}): durable, or lost
 * because the sync failed. A lost group's writes may not be on disk, so nothing waiting for them may be acknowledged;
 * the waiter is told so, and answers with an error rather than never answering.
 */
@FunctionalInterface
public interface SyncOutcome {
    /** Every write of the group is durable. */
    void durable();

    /** The sync failed; the store refuses every later write and the manager must restart to recover what is on disk. */
    default void lost(RuntimeException cause) { }
}
