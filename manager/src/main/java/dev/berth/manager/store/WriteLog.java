package dev.berth.manager.store;

/** Where an {@link ObjectTable} makes a write durable before applying it. */
interface WriteLog {
    WriteLog NONE = (record, table) -> { };

    /** Makes the write durable; the table is passed so a log can snapshot it. Runs under the table's lock. */
    void append(WriteRecord record, ObjectTable table);

    default void close() { }
}
