package dev.berth.agent;

import dev.berth.protocol.crd.RemoteWorkload;
import org.slf4j.Logger;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * Structured log lines about one attempt: every line carries cluster, workload (namespace/name) and
 * attempt as key/values. Context is passed explicitly, never through MDC.
 */
public final class AttemptLog {
    private final Logger logger;
    private final String cluster;

    public AttemptLog(Logger logger, String cluster) {
        this.logger = logger;
        this.cluster = cluster;
    }

    public void info(RemoteWorkload rw, String message, Object... keyValues) {
        emit(logger.atInfo(), rw, message, keyValues);
    }

    public void warn(RemoteWorkload rw, String message, Object... keyValues) {
        emit(logger.atWarn(), rw, message, keyValues);
    }

    private void emit(LoggingEventBuilder event, RemoteWorkload rw, String message, Object... keyValues) {
        event = event.addKeyValue("cluster", cluster)
                .addKeyValue("workload", rw.getMetadata().getNamespace() + "/" + rw.getMetadata().getName())
                .addKeyValue("attempt", rw.getSpec() == null ? null : rw.getSpec().getAttemptId());
        for (int i = 0; i + 1 < keyValues.length; i += 2) event = event.addKeyValue(String.valueOf(keyValues[i]), keyValues[i + 1]);
        event.log(message);
    }
}
