package dev.berth.benchmarks;

import dev.berth.manager.core.AdmissionController;
import dev.berth.manager.core.Condition;
import dev.berth.manager.core.CycleReport;
import dev.berth.manager.core.QueueStatus;
import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.core.StatusSink;
import dev.berth.manager.core.WorkloadStatus;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.model.WorkloadRequest;
import dev.berth.protocol.Conditions;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.TreeMap;

/**
 * A fingerprint of every decision the controller makes over a seeded history in simulated time:
 * the mixed workloads of {@link PendingLoad} arrive at random queues of a Kueue perf topology, run
 * for a random time once admitted, and some pending ones are deleted. Every status the controller
 * writes (workloads, ClusterQueues, LocalQueues, in the order written) and every schedule() report
 * goes into a SHA-256 digest, which is printed.
 *
 * <p>For performance work that must not change a decision: run it on the jar before and after a
 * change (the class can be compiled on its own against an older jar) and compare the digests.
 * {@code java -cp benchmarks/target/benchmarks.jar dev.berth.benchmarks.DecisionTrace [seed] [workloads] [cohorts] [queuesPerCohort]}
 */
public final class DecisionTrace implements StatusSink {
    private final MessageDigest digest;
    private final SimulatedClock clock = new SimulatedClock();
    private final Map<WorkloadKey, Long> runtimeOf = new HashMap<>();
    private final Map<WorkloadKey, Long> runningSince = new HashMap<>();
    private final PriorityQueue<long[]> finishes = new PriorityQueue<>((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
    private final Map<Long, WorkloadKey> bySerial = new HashMap<>();
    private long writes;
    private long admissions;

    private DecisionTrace() throws NoSuchAlgorithmException {
        digest = MessageDigest.getInstance("SHA-256");
    }

    public static void main(String[] args) throws Exception {
        long seed = args.length > 0 ? Long.parseLong(args[0]) : 1L;
        int workloads = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
        int cohorts = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        int perCohort = args.length > 3 ? Integer.parseInt(args[3]) : 6;
        new DecisionTrace().run(seed, workloads, QueueTopology.kueuePerf(cohorts, perCohort));
    }

    private void run(long seed, int workloadCount, QueueTopology topology) {
        Random random = new Random(seed);
        AdmissionController controller = new AdmissionController(clock, SchedulerOptions.DEFAULTS, this);
        topology.install(controller);
        List<WorkloadKey> pendingGuess = new ArrayList<>();
        long cycles = 0;
        for (long serial = 0; serial < workloadCount || !finishes.isEmpty(); serial++) {
            clock.advance(1 + random.nextInt(5));
            while (!finishes.isEmpty() && finishes.peek()[0] <= clock.millis()) {
                long[] due = finishes.poll();
                WorkloadKey key = bySerial.get(due[1]);
                Long since = runningSince.get(key);
                if (since != null && since == due[2]) {
                    runningSince.remove(key);
                    controller.finish(key, true, Conditions.Reasons.SUCCEEDED, "Job finished successfully");
                    if (random.nextBoolean()) controller.delete(key);
                }
            }
            if (serial < workloadCount) {
                int queue = random.nextInt(topology.queueCount());
                WorkloadRequest request = PendingLoad.workload(topology, queue, serial, clock.millis());
                bySerial.put(serial, request.key());
                runtimeOf.put(request.key(), 50L + random.nextInt(2_000));
                controller.submit(request, true, WorkloadStatus.EMPTY);
                pendingGuess.add(request.key());
                if (random.nextInt(50) == 0) {
                    WorkloadKey victim = pendingGuess.get(random.nextInt(pendingGuess.size()));
                    if (!runningSince.containsKey(victim)) controller.delete(victim);
                }
            }
            if (random.nextInt(3) == 0 || serial >= workloadCount) {
                CycleReport report = controller.schedule();
                cycles += report.cycles();
                add("schedule " + report);
            }
            if (serial > 10L * workloadCount) break;
        }
        System.out.printf("digest %s writes %d admissions %d cycles %d simulated %d ms%n",
                HexFormat.of().formatHex(digest.digest()), writes, admissions, cycles, clock.millis());
    }

    private void add(String line) {
        digest.update(line.getBytes(StandardCharsets.UTF_8));
        digest.update((byte) '\n');
        writes++;
    }

    @Override
    public void workloadChanged(WorkloadKey key, boolean active, WorkloadStatus status) {
        StringBuilder line = new StringBuilder("wl ").append(key).append(' ').append(active);
        for (Condition condition : status.conditions()) line.append(' ').append(condition);
        if (status.admission() != null) {
            line.append(" admission ").append(status.admission().clusterQueue()).append(' ')
                    .append(new TreeMap<>(status.admission().usage().entrySet().stream()
                            .collect(java.util.stream.Collectors.toMap(e -> e.getKey().toString(), Map.Entry::getValue))));
        }
        line.append(" checks ").append(status.admissionChecks()).append(" requeues ").append(status.requeueCount());
        add(line.toString());
        boolean admitted = status.isTrue(Conditions.ADMITTED) && !status.isTrue(Conditions.FINISHED);
        if (admitted && !runningSince.containsKey(key)) {
            admissions++;
            runningSince.put(key, clock.millis());
            long serial = Long.parseLong(key.name().substring("wl-".length()));
            finishes.add(new long[] {clock.millis() + runtimeOf.get(key), serial, clock.millis()});
        } else if (!admitted) {
            runningSince.remove(key);
        }
    }

    @Override
    public void clusterQueueChanged(String name, QueueStatus status) {
        add("cq " + name + ' ' + status);
    }

    @Override
    public void localQueueChanged(String namespace, String name, QueueStatus status) {
        add("lq " + namespace + '/' + name + ' ' + status);
    }

    @Override
    public void workloadExpired(WorkloadKey key) {
        add("expired " + key);
    }
}
