package dev.berth.agent;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Admitted attempts of which the cluster shows nothing: every object the agent created and every pod is gone, deleted
 * by someone else (an administrator, a TTL controller), while the attempt still counts as admitted or running. Left
 * alone such an attempt is stranded: it holds its quota on the manager and runs nowhere. It is declared vanished once
 * the passes have found nothing of it for {@link #GRACE} (so at least two passes, and longer than an informer's lag
 * after the agent's own create, which {@link Assumptions} covers first). Pure: the agent's clock is passed in.
 */
final class VanishedCopies {
    static final Duration GRACE = Duration.ofSeconds(10);

    /** Per attempt ("namespace/attemptId"), the first pass of the current run of passes that found nothing of it. */
    private final Map<String, Instant> missingSince = new HashMap<>();

    /** A pass found nothing of the attempt: whether nothing has been found of it for {@link #GRACE} now. */
    boolean missing(String attempt, Instant now) {
        Instant since = missingSince.putIfAbsent(attempt, now);
        return since != null && !since.plus(GRACE).isAfter(now);
    }

    /** A pass found some of the attempt's objects or pods: any earlier absence is forgotten. */
    void present(String attempt) {
        missingSince.remove(attempt);
    }

    /** Forgets attempts no longer current (their RemoteWorkload gone or finished). */
    void retain(Set<String> current) {
        missingSince.keySet().retainAll(current);
    }
}
