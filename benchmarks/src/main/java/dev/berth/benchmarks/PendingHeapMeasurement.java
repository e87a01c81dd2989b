package dev.berth.benchmarks;

import dev.berth.manager.core.AdmissionController;
import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.core.WorkloadStatus;
import dev.berth.manager.model.WorkloadKey;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.ref.Reference;
import java.time.Clock;
import java.util.Arrays;
import java.util.Locale;

/**
 * Heap cost of a pending workload: the heap used by a controller holding 100,000 pending workloads
 * (1,000 ClusterQueues, after a scheduling pass, so each carries its pending status) minus the same
 * controller empty, per workload. Target: at most 2 KiB.
 *
 * <p>Usage: {@code java -Xmx2g -cp benchmarks/target/benchmarks.jar dev.berth.benchmarks.PendingHeapMeasurement}
 */
public final class PendingHeapMeasurement {
    private static final int PENDING = 100_000;
    private static final long TARGET_BYTES = 2 * 1024;
    /** No queue has this much cpu even by borrowing: every workload stays pending. */
    private static final long TOO_LARGE_CPU_MILLIS = 1_000_000;

    private PendingHeapMeasurement() {}

    public static void main(String[] args) {
        QueueTopology topology = QueueTopology.kueuePerf(10, 100);
        AdmissionController controller = new AdmissionController(Clock.systemUTC(), SchedulerOptions.DEFAULTS, new DiscardingSink());
        topology.install(controller);
        controller.schedule();
        long empty = usedHeapMedianOfThree();

        for (int index = 0; index < PENDING; index++) {
            int queue = index % topology.queueCount();
            WorkloadKey key = WorkloadKey.of(topology.namespace(queue), "pending-" + index);
            controller.submit(CpuWorkload.request(key, 100, index, TOO_LARGE_CPU_MILLIS), true, WorkloadStatus.EMPTY);
        }
        controller.schedule();
        long full = usedHeapMedianOfThree();
        Reference.reachabilityFence(controller);

        double perWorkload = (double) (full - empty) / PENDING;
        System.out.printf(Locale.ROOT, "heap used: empty controller %.1f MiB, with %d pending %.1f MiB%n",
                empty / 1048576.0, PENDING, full / 1048576.0);
        System.out.printf(Locale.ROOT, "%.0f bytes per pending workload (target <= %d: %s)%n",
                perWorkload, TARGET_BYTES, perWorkload <= TARGET_BYTES ? "met" : "MISSED");
        System.out.printf(Locale.ROOT, "%n| Pending workloads | Heap per pending workload | Target |%n|---|---|---|%n"
                + "| %d | %.0f B | <= 2 KiB |%n", PENDING, perWorkload);
    }

    private static long usedHeapMedianOfThree() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long[] samples = new long[3];
        for (int i = 0; i < samples.length; i++) {
            System.gc();
            samples[i] = memory.getHeapMemoryUsage().getUsed();
        }
        Arrays.sort(samples);
        return samples[1];
    }

    private static final class DiscardingSink implements WorkloadStatusSink {
        @Override
        public void workloadChanged(WorkloadKey key, boolean active, WorkloadStatus status) {
        }
    }
}
