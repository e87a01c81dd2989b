package dev.berth.benchmarks;

import dev.berth.manager.core.AdmissionController;
import dev.berth.manager.core.CycleReport;
import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.core.WorkloadStatus;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.protocol.Conditions;
import java.time.Clock;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Scheduling throughput with a large backlog: 1,000 ClusterQueues (10 cohorts x 100) and 100,000
 * pending workloads of mixed sizes. One operation is the steady state of a busy manager: a running
 * workload finishes and is deleted, its job's successor is queued, and {@code schedule()} runs.
 * The {@code decisions} secondary result is admission decisions per second (heads evaluated, the
 * {@code nominated} count of {@link CycleReport}); {@code admissions} and {@code preemptions} count
 * the decisions that admitted a workload or evicted one, per second.
 *
 * <p>Run on one core: {@code java -jar benchmarks/target/benchmarks.jar SchedulingCycleBenchmark -f 1 -t 1}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Threads(1)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 10)
public class SchedulingCycleBenchmark {
    static final QueueTopology TOPOLOGY = QueueTopology.kueuePerf(10, 100);
    static final int PENDING_PER_QUEUE = 100;

    private AdmissionController controller;
    private final Map<WorkloadKey, Integer> queueOf = new HashMap<>();
    /** Admitted workloads, oldest admission first. */
    private final LinkedHashSet<WorkloadKey> running = new LinkedHashSet<>();
    private long nextSerial;

    /** Decisions counted per second of measured time. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Decisions {
        public long decisions;
        public long admissions;
        public long preemptions;

        @Setup(Level.Iteration)
        public void reset() {
            decisions = 0;
            admissions = 0;
            preemptions = 0;
        }
    }

    @Setup(Level.Trial)
    public void fillBacklog() {
        controller = new AdmissionController(Clock.systemUTC(), SchedulerOptions.DEFAULTS, new RunningTracker());
        TOPOLOGY.install(controller);
        for (int round = 0; round < PENDING_PER_QUEUE; round++) {
            for (int queue = 0; queue < TOPOLOGY.queueCount(); queue++) submit(queue);
        }
        controller.schedule();
        if (running.isEmpty()) throw new IllegalStateException("nothing was admitted from the backlog");
    }

    @Benchmark
    public CycleReport finishOneAndSchedule(Decisions decisions) {
        Iterator<WorkloadKey> oldest = running.iterator();
        if (oldest.hasNext()) {
            WorkloadKey key = oldest.next();
            oldest.remove();
            controller.finish(key, true, Conditions.Reasons.SUCCEEDED, "Job finished successfully");
            controller.delete(key);
            submit(queueOf.remove(key));
        }
        CycleReport report = controller.schedule();
        decisions.decisions += report.nominated();
        decisions.admissions += report.admitted();
        decisions.preemptions += report.preempted();
        return report;
    }

    private void submit(int queue) {
        long serial = nextSerial++;
        var request = PendingLoad.workload(TOPOLOGY, queue, serial, serial);
        queueOf.put(request.key(), queue);
        controller.submit(request, true, WorkloadStatus.EMPTY);
    }

    /** Keeps the set of admitted workloads in step with the controller's reports. */
    private final class RunningTracker implements WorkloadStatusSink {
        @Override
        public void workloadChanged(WorkloadKey key, boolean active, WorkloadStatus status) {
            boolean admitted = status.isTrue(Conditions.ADMITTED) && !status.isTrue(Conditions.FINISHED);
            if (admitted) running.add(key);
            else running.remove(key);
        }
    }
}
