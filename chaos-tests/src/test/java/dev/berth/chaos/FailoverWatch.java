package dev.berth.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.LockSupport;

/**
 * Measures one leader death from outside, through the surviving replicas' reads (PostgreSQL): from the
 * kill until a replica says it leads, until the first workload gets quota it did not hold at the kill
 * (the new leader scheduled), and until the first workload carries a dispatch attempt it did not carry
 * at the kill (the new leader dispatched). Polled every {@value #POLL_MILLIS} ms, on its own thread, while
 * the drill keeps submitting. Reports times; asserts nothing.
 */
final class FailoverWatch {
    static final long POLL_MILLIS = 100;
    private static final long GIVE_UP_MILLIS = 90_000;

    /** Milliseconds from the kill; -1 when not seen before giving up. */
    record Times(long leadsMillis, long scheduledMillis, long dispatchedMillis) {}

    private record Before(boolean reserved, String attemptId) {}

    private FailoverWatch() {}

    /** Starts watching; call right after the kill, with the kill's System.nanoTime(). */
    static CompletableFuture<Times> start(DrillEnvironment env, long killedAtNanos, Runnable onLeads, Runnable onDispatched) {
        Map<String, Before> before = snapshot(env);
        return CompletableFuture.supplyAsync(() -> watch(env, killedAtNanos, before, onLeads, onDispatched));
    }

    private static Times watch(DrillEnvironment env, long killedAt, Map<String, Before> before, Runnable onLeads, Runnable onDispatched) {
        long leads = -1;
        long scheduled = -1;
        long dispatched = -1;
        while (millisSince(killedAt) < GIVE_UP_MILLIS && (leads < 0 || scheduled < 0 || dispatched < 0)) {
            try {
                if (leads < 0 && Leadership.leader(env) != null) {
                    leads = millisSince(killedAt);
                    onLeads.run();
                }
                if (scheduled < 0 || dispatched < 0) {
                    for (JsonNode workload : env.api().workloads(ChaosQueues.NAMESPACE)) {
                        Before was = before.getOrDefault(name(workload), new Before(false, ""));
                        if (scheduled < 0 && !was.reserved() && reserved(workload)) scheduled = millisSince(killedAt);
                        String attempt = attemptOf(workload);
                        if (dispatched < 0 && !attempt.isEmpty() && !attempt.equals(was.attemptId())) {
                            dispatched = millisSince(killedAt);
                            onDispatched.run();
                        }
                    }
                }
            } catch (RuntimeException notAnsweringYet) {
                // no replica answers reads for a moment: poll again
            }
            LockSupport.parkNanos(POLL_MILLIS * 1_000_000);
        }
        return new Times(leads, scheduled, dispatched);
    }

    private static Map<String, Before> snapshot(DrillEnvironment env) {
        Map<String, Before> before = new HashMap<>();
        for (int tries = 0; tries < 50; tries++) {
            try {
                List<JsonNode> workloads = env.api().workloads(ChaosQueues.NAMESPACE);
                workloads.forEach(w -> before.put(name(w), new Before(reserved(w), attemptOf(w))));
                return before;
            } catch (RuntimeException notAnsweringYet) {
                LockSupport.parkNanos(POLL_MILLIS * 1_000_000);
            }
        }
        return before;
    }

    private static String name(JsonNode workload) {
        return workload.path("metadata").path("name").asText();
    }

    private static boolean reserved(JsonNode workload) {
        return "True".equals(ManagerApi.condition(workload, "QuotaReserved"));
    }

    private static String attemptOf(JsonNode workload) {
        return workload.path("status").path("dispatch").path("attemptId").asText("");
    }

    private static long millisSince(long nanos) {
        return (System.nanoTime() - nanos) / 1_000_000;
    }

    /** The median of the times seen (-1 left out), or -1 when none was. */
    static long median(List<Long> millis) {
        List<Long> seen = millis.stream().filter(m -> m >= 0).sorted().toList();
        if (seen.isEmpty()) return -1;
        int middle = seen.size() / 2;
        return seen.size() % 2 == 1 ? seen.get(middle) : (seen.get(middle - 1) + seen.get(middle)) / 2;
    }
}
