package dev.berth.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * CPU time this JVM spent since construction: the whole process, and the manager's state thread and event
 * loops by thread name. Lower in noise than wall time on a shared machine, so a change's CPU cost shows even
 * where the replay's wall time moves with its preemptions.
 */
final class ThreadCpu {
    private static final String STATE_THREAD = "berth-state";
    private static final String EVENT_LOOP = "vert.x-eventloop-thread-";

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final long processStart = processCpuNanos();
    private final Map<Long, Long> threadStart = threadCpuNanos();

    /**
     * "CPU during the run: process 78.3 s, state thread 18.0 s, event loops 9.1 s; by thread: ..." with the
     * Java threads alive at the end grouped by name (digits dropped), most CPU first. The rest of the process
     * (the JIT's compilers, the garbage collector) is not a Java thread and shows only in the total.
     */
    String line() {
        double process = (processCpuNanos() - processStart) / 1e9;
        Map<String, Double> byGroup = new HashMap<>();
        Map<Long, Long> now = threadCpuNanos();
        for (ThreadInfo info : threads.getThreadInfo(now.keySet().stream().mapToLong(Long::longValue).toArray())) {
            if (info == null) continue;
            double seconds = (now.get(info.getThreadId()) - threadStart.getOrDefault(info.getThreadId(), 0L)) / 1e9;
            byGroup.merge(info.getThreadName().replaceAll("\\d+", "N"), seconds, Double::sum);
        }
        double loops = byGroup.getOrDefault(EVENT_LOOP + "N", 0.0);
        double java = byGroup.values().stream().mapToDouble(Double::doubleValue).sum();
        StringBuilder groups = new StringBuilder();
        byGroup.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed()).limit(8)
                .forEach(group -> groups.append(String.format(Locale.ROOT, " %s %.1f;", group.getKey(), group.getValue())));
        return String.format(Locale.ROOT, "CPU during the run: process %.1f s, state thread %.1f s, event loops %.1f s; "
                + "Java threads %.1f s (the rest: JIT, GC); by thread:%s", process, byGroup.getOrDefault(STATE_THREAD, 0.0), loops, java, groups);
    }

    private Map<Long, Long> threadCpuNanos() {
        Map<Long, Long> cpu = new HashMap<>();
        for (long id : threads.getAllThreadIds()) {
            long nanos = threads.getThreadCpuTime(id);
            if (nanos >= 0) cpu.put(id, nanos);
        }
        return cpu;
    }

    private static long processCpuNanos() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os ? os.getProcessCpuTime() : -1;
    }
}
