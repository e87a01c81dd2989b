package dev.berth.benchmarks;

import dev.berth.manager.core.AdmissionController;
import dev.berth.manager.core.CycleReport;
import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.core.WorkloadStatus;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.protocol.Conditions;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * A Kueue perf scenario in simulated time: the same creations, runtimes and quota as
 * {@link KueuePerfReplay}, but the clock moves only between events, and a scheduling pass runs every
 * {@code passMillis} of simulated time when something happened. The decisions are therefore the same
 * on every run and every build that decides the same, which makes two things measurable on a noisy
 * machine: the CPU time the controller spends on the scenario (compare builds by it), and the wall
 * time an infinitely fast scheduler would reach with these semantics (the part of the replay's ratio
 * that no speed-up can remove). A digest of the admissions checks that two builds decided the same.
 *
 * <p>Usage: {@code java -cp benchmarks/target/benchmarks.jar dev.berth.benchmarks.KueuePerfSimulation large|baseline [passMillis] [rounds] [holdMillis [exponential]]}
 */
public final class KueuePerfSimulation implements WorkloadStatusSink {
    private final PerfScenario scenario;
    private final long passMillis;
    private final SimulatedClock clock = new SimulatedClock();
    private final Map<WorkloadKey, TrackedWorkload> workloads = new HashMap<>();
    /** Due finishes: {dueMillis, sequence}; the sequence indexes {@link #finishing}. */
    private final PriorityQueue<long[]> finishes = new PriorityQueue<>((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
    private final List<TrackedWorkload> finishing = new ArrayList<>();
    private final Map<TrackedWorkload, Long> finishSequence = new HashMap<>();
    private final MessageDigest digest;
    private AdmissionController controller;
    private long preemptions;
    private long cycles;
    private long passes;
    private long admissions;
    /**
     * Added to every run: a finish reaches the controller this much after the job's runtime (an API's round trips),
     * or, jittered, a delay drawn from an exponential distribution of this mean (seeded 42, 43, ... by round, so runs
     * repeat and the rounds show how far the outcome moves with the draws alone).
     */
    private final long holdMillis;
    private final boolean jittered;
    private final java.util.Random jitter;
    private final Map<String, Integer> preemptedByClass = new java.util.TreeMap<>();

    private KueuePerfSimulation(PerfScenario scenario, long passMillis, long holdMillis, boolean jittered, long seed) throws Exception {
        this.scenario = scenario;
        this.jitter = new java.util.Random(seed);
        this.passMillis = passMillis;
        this.holdMillis = holdMillis;
        this.jittered = jittered;
        this.digest = MessageDigest.getInstance("SHA-256");
    }

    public static void main(String[] args) throws Exception {
        PerfScenario scenario = PerfScenario.named(args.length > 0 ? args[0] : "large");
        long passMillis = args.length > 1 ? Long.parseLong(args[1]) : 5;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        long holdMillis = args.length > 3 ? Long.parseLong(args[3]) : 0;
        boolean jittered = args.length > 4 && args[4].equals("exponential");
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        for (int round = 1; round <= rounds; round++) {
            KueuePerfSimulation simulation = new KueuePerfSimulation(scenario, passMillis, holdMillis, jittered, 41 + round);
            long cpuBefore = threads.getCurrentThreadCpuTime();
            long simulatedWall = simulation.run();
            double cpuMillis = (threads.getCurrentThreadCpuTime() - cpuBefore) / 1e6;
            System.out.printf(Locale.ROOT,
                    "round %d: cpu %.0f ms, simulated wall %.2f s (%.3fx lower bound %.2f s), passes %d, cycles %d, admissions %d, preemptions %d %s, digest %s%n",
                    round, cpuMillis, simulatedWall / 1000.0, (double) simulatedWall / scenario.lowerBoundMillis(),
                    scenario.lowerBoundMillis() / 1000.0, simulation.passes, simulation.cycles, simulation.admissions,
                    simulation.preemptions, simulation.preemptedByClass, HexFormat.of().formatHex(simulation.digest.digest()).substring(0, 16));
        }
    }

    /** Runs the scenario to its last finish; returns the simulated time from first creation to last finish. */
    private long run() {
        controller = new AdmissionController(clock, SchedulerOptions.DEFAULTS, this);
        scenario.topology().install(controller);
        List<long[]> creations = new ArrayList<>();
        List<WorkloadClass> classes = scenario.classes();
        for (int queue = 0; queue < scenario.topology().queueCount(); queue++) {
            for (int c = 0; c < classes.size(); c++) {
                for (int index = 0; index < classes.get(c).countPerQueue(); index++) {
                    creations.add(new long[] {index * classes.get(c).intervalMillis(), queue, c, index});
                }
            }
        }
        creations.sort((a, b) -> Long.compare(a[0], b[0]));
        long start = clock.millis();
        int next = 0;
        int finished = 0;
        long lastFinish = start;
        while (finished < creations.size()) {
            long tickEnd = clock.millis() + passMillis;
            boolean changed = false;
            while (next < creations.size() && start + creations.get(next)[0] < tickEnd) {
                long[] creation = creations.get(next++);
                clock.set(Math.max(clock.millis(), start + creation[0]));
                create((int) creation[1], classes.get((int) creation[2]), (int) creation[3]);
                changed = true;
            }
            while (!finishes.isEmpty() && finishes.peek()[0] < tickEnd) {
                long[] due = finishes.poll();
                TrackedWorkload workload = finishing.get((int) due[1]);
                if (workload == null) continue;
                clock.set(Math.max(clock.millis(), due[0]));
                finish(workload);
                finished++;
                lastFinish = clock.millis();
                changed = true;
            }
            clock.set(tickEnd);
            if (changed) {
                CycleReport report = controller.schedule();
                passes++;
                cycles += report.cycles();
                preemptions += report.preempted();
            }
        }
        return lastFinish - start;
    }

    private void create(int queue, WorkloadClass workloadClass, int index) {
        WorkloadKey key = WorkloadKey.of(scenario.topology().namespace(queue), workloadClass.name() + "-" + index);
        workloads.put(key, new TrackedWorkload(key, workloadClass, clock.millis()));
        controller.submit(CpuWorkload.request(key, workloadClass.priority(), clock.millis(), workloadClass.cpuMillis()),
                true, WorkloadStatus.EMPTY);
    }

    private void finish(TrackedWorkload workload) {
        workload.finished = true;
        finishing.set(finishSequence.remove(workload).intValue(), null);
        controller.finish(workload.key, true, Conditions.Reasons.SUCCEEDED, "Job finished successfully");
    }

    @Override
    public void workloadChanged(WorkloadKey key, boolean active, WorkloadStatus status) {
        TrackedWorkload workload = workloads.get(key);
        if (workload == null || workload.finished) return;
        boolean admitted = status.isTrue(Conditions.ADMITTED);
        Long sequence = finishSequence.get(workload);
        if (admitted && sequence == null) {
            admissions++;
            digest.update((clock.millis() + " " + key + "\n").getBytes(StandardCharsets.UTF_8));
            long assigned = finishing.size();
            finishing.add(workload);
            finishSequence.put(workload, assigned);
            long hold = jittered ? (long) (holdMillis * -Math.log(1 - jitter.nextDouble())) : holdMillis;
            finishes.add(new long[] {clock.millis() + workload.workloadClass.runtimeMillis() + hold, assigned});
        } else if (!admitted && sequence != null) {
            preemptedByClass.merge(workload.workloadClass.name(), 1, Integer::sum);
            finishing.set(sequence.intValue(), null);
            finishSequence.remove(workload);
        }
    }
}
