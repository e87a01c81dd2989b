package dev.berth.benchmarks;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/** What {@link ApiPerfReplay} may run before the measured replay: {@code --warm-runs} and {@code --warmup}. */
final class ReplayWarmUps {
    private ReplayWarmUps() {}

    /**
     * A quarter of the scenario (each class's count per queue divided by four) against a manager of its own, closed
     * after: the measured run's manager then starts with an empty store in a JVM whose JIT has compiled the API,
     * admission and finish paths, as a manager that has run a while has. Not Kueue's method (its runner does no
     * warm-up, and its Go binaries need none); say so next to the numbers.
     */
    static void warmRun(PerfScenario scenario, Path manifests, int clients, long timeoutSeconds, int run) throws Exception {
        List<WorkloadClass> quarter = scenario.classes().stream().map(c -> new WorkloadClass(c.name(), Math.max(1, c.countPerQueue() / 4),
                c.cpuMillis(), c.runtimeMillis(), c.intervalMillis(), c.priority())).toList();
        PerfScenario warm = new PerfScenario(scenario.name() + " (warm-up run " + run + ")", scenario.topology(), quarter, scenario.targetRatio());
        long started = System.nanoTime();
        java.io.PrintStream out = System.out;
        System.setOut(new java.io.PrintStream(java.io.OutputStream.nullOutputStream()));
        try (ApiBench api = ApiBench.start("api-replay-warm", List.of(manifests), null, 1_000)) {
            new ApiPerfReplay(warm, api, clients).run(timeoutSeconds);
        } finally {
            System.setOut(out);
        }
        System.out.printf(Locale.ROOT, "warm-up run %d: %d workloads in %.1f s against a manager of its own, closed; load %s%n",
                run, warm.workloadCount(), (System.nanoTime() - started) / 1e9, CpuSampler.loadAverage());
    }

    /**
     * Warms the create path (TLS, authentication, JSON, validation, store, audit) and the JIT before the
     * scenario: {@code count} inactive Workloads ({@code spec.active: false}, never admitted, so they take no
     * quota) spread over the scenario's namespaces. Not Kueue's method (its runner does no warm-up); say so.
     */
    static void warmUp(ApiBench api, QueueTopology topology, int count, int clients) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(clients, ApiPerfReplay.daemon("warmup"));
        Map<Integer, Integer> refused = new java.util.concurrent.ConcurrentHashMap<>();
        long started = System.nanoTime();
        for (int i = 0; i < count; i++) {
            String namespace = topology.namespace(i % topology.queueCount());
            String body = WorkloadJson.workload(namespace, "warmup-" + i, QueueTopology.LOCAL_QUEUE, 0, 1)
                    .replaceFirst("\"spec\":\\{", "\"spec\":{\"active\":false,");
            pool.execute(() -> {
                int status = api.post(WorkloadJson.collectionPath(namespace), body);
                if (status != 201) refused.merge(status, 1, Integer::sum);
            });
        }
        pool.shutdown();
        pool.awaitTermination(1, TimeUnit.HOURS);
        double seconds = (System.nanoTime() - started) / 1e9;
        System.out.printf(Locale.ROOT, "warm-up: %d inactive Workloads sent in %.1f s (%.0f/s), not 201 by status %s; load %s%n",
                count, seconds, count / seconds, new TreeMap<>(refused), CpuSampler.loadAverage());
    }
}
