package dev.berth.manager.core;

import java.time.Clock;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records a workload's new status in its entry and hands it to the {@link StatusSink}. A failed
 * write is logged and the entry keeps the new status: the next change of the workload writes it
 * again, and the store's own retry covers the rest.
 */
final class WorkloadStatusWriter {
    private static final Logger log = LoggerFactory.getLogger(WorkloadStatusWriter.class);

    private final StatusSink sink;
    private final Clock clock;

    WorkloadStatusWriter(StatusSink sink, Clock clock) {
        this.sink = sink;
        this.clock = clock;
    }

    void write(WorkloadEntry entry, WorkloadStatus status) {
        entry.status = status;
        try {
            sink.workloadChanged(entry.key(), entry.active, status);
        } catch (RuntimeException writeFailed) {
            log.atWarn().addKeyValue("workload", entry.key()).setCause(writeFailed).log("status write failed");
        }
    }

    /** Writes a status that must be recorded before the caller goes on (a reservation); throws when it is not. */
    void writeOrThrow(WorkloadEntry entry, WorkloadStatus status) {
        sink.workloadChanged(entry.key(), entry.active, status);
        entry.status = status;
    }

    Instant now() {
        return clock.instant();
    }

    long millis() {
        return clock.millis();
    }
}
