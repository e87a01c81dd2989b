package dev.berth.system;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.LayoutBase;
import ch.qos.logback.core.filter.Filter;
import ch.qos.logback.core.spi.FilterReply;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import org.slf4j.event.KeyValuePair;

/**
 * The quickstart's console: one readable line per event that matters (a cluster connected, a workload
 * admitted, dispatched or finished) and every warning or error; the rest stays in the JSON log file.
 */
public final class ConsoleEvents {
    private ConsoleEvents() {}

    /** The manager's log messages that get a console line, with the word the line starts with. */
    static final Map<String, String> LABELS = Map.of(
            "worker cluster connected", "cluster connected",
            "quota reserved; waiting for admission checks", "quota reserved",
            "workload admitted", "admitted",
            "workload admitted: all admission checks ready", "admitted",
            "dispatching workload", "dispatched",
            "remote attempt admitted", "running",
            "workload finished", "finished");

    /** The key/values shown, in this order, as "key=value". */
    private static final List<String> SHOWN_KEYS = List.of("workload", "cluster", "clusterQueue", "flavors", "succeeded", "error");
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneId.systemDefault());

    static boolean shown(ILoggingEvent event) {
        return event.getLevel().isGreaterOrEqual(Level.WARN) || LABELS.containsKey(event.getMessage());
    }

    static String line(ILoggingEvent event) {
        StringBuilder line = new StringBuilder(TIME.format(Instant.ofEpochMilli(event.getTimeStamp()))).append("  ");
        String label = LABELS.get(event.getMessage());
        if (label != null) {
            line.append(String.format("%-17s", label));
        } else {
            line.append(event.getLevel()).append("  ").append(event.getFormattedMessage());
        }
        List<KeyValuePair> pairs = event.getKeyValuePairs() == null ? List.of() : event.getKeyValuePairs();
        for (String key : SHOWN_KEYS) {
            for (KeyValuePair pair : pairs) {
                if (pair.key.equals(key)) line.append(' ').append(key).append('=').append(pair.value);
            }
        }
        if (label == null && event.getThrowableProxy() != null) {
            line.append("  (").append(event.getThrowableProxy().getClassName()).append(": ")
                    .append(event.getThrowableProxy().getMessage()).append(')');
        }
        return line.append(System.lineSeparator()).toString();
    }

    /** The console appender's filter (berth-quickstart-logback.xml). */
    public static final class OnlyShown extends Filter<ILoggingEvent> {
        @Override
        public FilterReply decide(ILoggingEvent event) {
            return shown(event) ? FilterReply.NEUTRAL : FilterReply.DENY;
        }
    }

    /** The console appender's layout (berth-quickstart-logback.xml). */
    public static final class ReadableLine extends LayoutBase<ILoggingEvent> {
        @Override
        public String doLayout(ILoggingEvent event) {
            return line(event);
        }
    }
}
