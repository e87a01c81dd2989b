package dev.berth.manager.events;

import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * client-go's event aggregator ({@code EventAggregatorByReasonFunc}): events about one object with the same type and
 * reason but different messages are similar; once {@code limit} distinct messages were seen within {@code window} of
 * each other, the next ones are recorded as one combined event, whose count and message follow the newest. A busy
 * ClusterQueue thus keeps one "(combined from similar events): Admitted workload ..." event counting its admissions,
 * instead of a create and a delete per admission. At most {@link #MAX_TRACKED} keys are remembered, least recently
 * seen forgotten first, as client-go's LRU cache. Confined to the state thread, like the recorder.
 */
final class SimilarEvents {
    static final String COMBINED_PREFIX = "(combined from similar events): ";
    static final int MAX_TRACKED = 4_096;

    private static final class Seen {
        final Set<String> messages = new HashSet<>();
        Instant last;
    }

    private final int limit;
    private final Duration window;
    private final Map<String, Seen> byKey = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Seen> eldest) {
            return size() > MAX_TRACKED;
        }
    };

    SimilarEvents(int limit, Duration window) {
        this.limit = limit;
        this.window = window;
    }

    /** Notes the event; true when it is one too many similar ones and is to be recorded combined. */
    boolean combine(String uid, String type, String reason, String message, Instant now) {
        String key = uid + "\u0000" + type + "\u0000" + reason;
        Seen seen = byKey.get(key);
        if (seen == null || seen.last.plus(window).isBefore(now)) {
            seen = new Seen();
            byKey.put(key, seen);
        }
        seen.last = now;
        if (seen.messages.size() < limit) seen.messages.add(message);
        return seen.messages.size() >= limit;
    }

    /** Whether a stored event's message is that of a combined event. */
    static boolean isCombined(String message) {
        return message.startsWith(COMBINED_PREFIX);
    }
}
