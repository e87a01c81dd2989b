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

    default void close() { }
}
