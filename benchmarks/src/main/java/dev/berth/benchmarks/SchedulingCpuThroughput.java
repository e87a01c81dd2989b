package dev.berth.benchmarks;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;

/**
 * The steady state of {@link SchedulingCycleBenchmark}, timed in CPU time of the whole JVM (so
 * garbage collection and the JIT count) instead of wall time: admission decisions per CPU-second,
 * i.e. on one core, whatever else the machine runs. On a shared, loaded machine JMH's wall-clock score mostly measures the other
 * processes; this number moves only with the code (and the caches it shares).
 *
 * <p>{@code java -Xms2g -Xmx2g -cp benchmarks/target/benchmarks.jar dev.berth.benchmarks.SchedulingCpuThroughput [warmupSeconds] [rounds] [cpuSecondsPerRound]}
 */
public final class SchedulingCpuThroughput {
    private SchedulingCpuThroughput() {}

    public static void main(String[] args) {
        double warmupSeconds = args.length > 0 ? Double.parseDouble(args[0]) : 5;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        double roundSeconds = args.length > 2 ? Double.parseDouble(args[2]) : 3;
        OperatingSystemMXBean process = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        SchedulingCycleBenchmark benchmark = new SchedulingCycleBenchmark();
        benchmark.fillBacklog();
        SchedulingCycleBenchmark.Decisions decisions = new SchedulingCycleBenchmark.Decisions();
        runFor(benchmark, decisions, process, warmupSeconds);
        for (int round = 1; round <= rounds; round++) {
            decisions.reset();
            long cpuNanos = runFor(benchmark, decisions, process, roundSeconds);
            double seconds = cpuNanos / 1e9;
            System.out.printf("round %d: %.0f decisions/cpu-s, %.0f admissions/cpu-s, %.0f preemptions/cpu-s (%d decisions in %.2f cpu-s)%n",
                    round, decisions.decisions / seconds, decisions.admissions / seconds, decisions.preemptions / seconds,
                    decisions.decisions, seconds);
        }
    }

    private static long runFor(SchedulingCycleBenchmark benchmark, SchedulingCycleBenchmark.Decisions decisions,
                               OperatingSystemMXBean process, double cpuSeconds) {
        long start = process.getProcessCpuTime();
        long budget = (long) (cpuSeconds * 1e9);
        long used;
        do {
            benchmark.finishOneAndSchedule(decisions);
            used = process.getProcessCpuTime() - start;
        } while (used < budget);
        return used;
    }
}
