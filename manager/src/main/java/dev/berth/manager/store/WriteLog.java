package dev.berth.manager.store;

/** Where an {@link ObjectTable} makes a write durable before applying it. */
interface WriteLog {
    WriteLog NONE = (record, table) -> { };

    /** Makes the write durable; the table is passed so a log can snapshot it. Runs under the table's lock. */
    void append(WriteRecord record, ObjectTable table);

    /** From here until the matching {@link #endGroup()}, appends need not be synced one by one. Under the table's lock. */
    default void beginGroup() { }

    /** Ends a group; the outermost end syncs every append made in the group before it returns. Under the table's lock. */
    default void endGroup() { }

    /**
     * Ends the outermost group like {@link #endGroup()}, but may return before its sync: afterSync runs once every
     * append of the group is durable, on whichever thread made it so; it is told lost if that sync failed. Under the
     * table's lock.
     */
    default void endGroupThen(SyncOutcome afterSync) {
        endGroup();
        afterSync.durable();
    }

    /** Makes every append so far durable before it returns, those of groups still waiting for their sync included. */
    default void syncNow() { }

    default void close() { }
}
