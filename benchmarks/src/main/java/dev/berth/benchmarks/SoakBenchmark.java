package dev.berth.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Issue 16 target 5: {@code --workloads} Workloads (default 100,000) through the manager's HTTPS API
 * ({@link ApiBench}, admission only), each marked Finished by a status JSON patch {@code --runtime-ms}
 * after the watch shows it admitted, with finished workloads deleted {@code --retain} after they
 * finish (Kueue's objectRetentionPolicies.workloads.afterFinished, Berth's {@code --retain-finished}).
 * At most {@code --in-flight} workloads are created and not yet finished, so the run is a steady flow.
 *
 * <p>The manager runs in this JVM: at the end of each quarter of the finishes the benchmark asks for a
 * full collection ({@code System.gc()}, a stop-the-world full GC with G1 unless ExplicitGCInvokesConcurrent
 * is set) and reads heap used from {@link MemoryMXBean}. Every {@code --sample-seconds} it records the
 * store's data directory size and the Workloads the API lists. Heap is flat when the last quarter's
 * heap after GC is at most 1.1x the first's; the store is bounded when the objects listed in the last
 * quarter are at most 1.25x the most listed before it (plus the in-flight window), its data directory at most
 * 1.25x its largest before, and at most the in-flight window is left once the retention has passed.
 *
 * <p>Exit 0 both met, 1 not met, 3 creates refused or finishes failed (nothing measured).
 */
public final class SoakBenchmark {
    private record Sample(long atMillis, int finished, long dataBytes, int objects, long heapUsed) {}

    private final ApiBench api;
    private final String namespace;
    private final int workloads;
    private final long runtimeMillis;
    private final Clock clock = Clock.systemUTC();
    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private final Semaphore inFlight;
    private final int inFlightLimit;
    private final int clients;
    private final ExecutorService creators;
    private final ExecutorService finishers;
    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
    private final Map<String, Long> waiting = new ConcurrentHashMap<>();
    private final long[] admissionMillis;
    private final AtomicInteger admitted = new AtomicInteger();
    private final AtomicInteger finished = new AtomicInteger();
    private final AtomicInteger refused = new AtomicInteger();
    private final AtomicInteger finishFailures = new AtomicInteger();
    private final Map<Integer, Integer> statuses = new ConcurrentHashMap<>();
    private final long[] quarterHeap = new long[4];
    private final CountDownLatch done = new CountDownLatch(1);
    private final List<Sample> samples = new ArrayList<>();

    private SoakBenchmark(ApiBench api, String namespace, int workloads, int clients, int inFlight, long runtimeMillis) {
        this.api = api;
        this.namespace = namespace;
        this.workloads = workloads;
        this.runtimeMillis = runtimeMillis;
        this.inFlight = new Semaphore(inFlight);
        this.inFlightLimit = inFlight;
        this.clients = clients;
        this.admissionMillis = new long[workloads];
        this.creators = Executors.newFixedThreadPool(clients);
        this.finishers = Executors.newFixedThreadPool(clients);
    }

    public static void main(String[] args) throws Exception {
        int workloads = 100_000;
        int clients = 16;
        int inFlight = 200;
        Duration retain = Duration.ofSeconds(30);
        long runtimeMillis = 100;
        long sampleSeconds = 15;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--workloads" -> workloads = Integer.parseInt(args[++i]);
                case "--clients" -> clients = Integer.parseInt(args[++i]);
                case "--in-flight" -> inFlight = Integer.parseInt(args[++i]);
                case "--retain" -> retain = Duration.parse(args[++i]);
                case "--runtime-ms" -> runtimeMillis = Long.parseLong(args[++i]);
                case "--sample-seconds" -> sampleSeconds = Long.parseLong(args[++i]);
                default -> {
                    System.err.println("usage: SoakBenchmark [--workloads 100000] [--clients 16] [--in-flight 200] [--retain PT30S]"
                            + " [--runtime-ms 100] [--sample-seconds 15]");
                    System.exit(2);
                }
            }
        }
        if (workloads < 4) throw new IllegalArgumentException("--workloads must be at least 4 (the heap is measured per quarter)");
        System.out.printf(Locale.ROOT, "Soak: %d workloads, %d clients, at most %d in flight, finished %d ms after admission, retained %s;"
                        + " load %s (%d cores, max heap %d MiB, %s)%n", workloads, clients, inFlight, runtimeMillis, retain,
                CpuSampler.loadAverage(), Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory() >> 20, Runtime.version());
        // one ClusterQueue with room for every workload in flight: admission never waits for quota
        QueueTopology topology = new QueueTopology(1, 1, 1_000_000, 0);
        Path manifests = PerfQueueManifests.write(Files.createTempDirectory("berth-soak-queues"), topology);
        int exit;
        try (ApiBench api = ApiBench.start("soak", List.of(manifests), retain, workloads + 100)) {
            System.out.printf("manager up at %s (store %s)%n", api.baseUrl, api.data);
            exit = new SoakBenchmark(api, topology.namespace(0), workloads, clients, inFlight, runtimeMillis).run(sampleSeconds, retain);
        }
        System.exit(exit);
    }

    private int run(long sampleSeconds, Duration retain) throws Exception {
        long started = clock.millis();
        CpuSampler cpu = new CpuSampler();
        try (WorkloadWatch watch = new WorkloadWatch(api, (ns, name, isAdmitted, isFinished) -> {
            if (isAdmitted) admitted(name);
        })) {
            watch.start();
            sample();
            timers.scheduleAtFixedRate(this::sampleQuietly, sampleSeconds, sampleSeconds, TimeUnit.SECONDS);
            AtomicInteger next = new AtomicInteger();
            for (int c = 0; c < clients; c++) {
                creators.execute(() -> createLoop(next));
            }
            done.await();
            long wall = clock.millis() - started;
            timers.shutdownNow();
            sample();
            // after the retention, once more: the last finished workloads should be gone
            Thread.sleep(retain.toMillis() + 5_000);
            api.post(WorkloadJson.collectionPath(namespace), WorkloadJson.workload(namespace, "after-retention", QueueTopology.LOCAL_QUEUE, 0, 100));
            Thread.sleep(2_000);
            sample();
            return report(wall, watch, cpu);
        } finally {
            creators.shutdownNow();
            finishers.shutdownNow();
            timers.shutdownNow();
        }
    }

    private void createLoop(AtomicInteger next) {
        for (int i = next.getAndIncrement(); i < workloads && done.getCount() > 0; i = next.getAndIncrement()) {
            inFlight.acquireUninterruptibly();
            String name = "soak-" + i;
            waiting.put(name, clock.millis());
            int status = api.post(WorkloadJson.collectionPath(namespace), WorkloadJson.workload(namespace, name, QueueTopology.LOCAL_QUEUE, 0, 100));
            if (status != 201) {
                statuses.merge(status, 1, Integer::sum);
                waiting.remove(name);
                refused.incrementAndGet();
                inFlight.release();
                ended();
            }
        }
    }

    /** From the watch's thread; a workload is admitted once, later events of it find nothing waiting. */
    private void admitted(String name) {
        Long sent = waiting.remove(name);
        if (sent == null) return;
        int index = admitted.getAndIncrement();
        if (index < admissionMillis.length) admissionMillis[index] = clock.millis() - sent;
        timers.schedule(() -> finishers.execute(() -> finish(name)), runtimeMillis, TimeUnit.MILLISECONDS);
    }

    private void finish(String name) {
        int status = -1;
        for (int attempt = 0; attempt < 5 && status != 200; attempt++) {
            status = api.jsonPatch(WorkloadJson.statusPath(namespace, name), WorkloadJson.finishedPatch(clock.instant()));
        }
        inFlight.release();
        if (status != 200) {
            statuses.merge(status, 1, Integer::sum);
            finishFailures.incrementAndGet();
        } else {
            int count = finished.incrementAndGet();
            if (count % (workloads / 4) == 0 && count / (workloads / 4) <= 4) quarter(count / (workloads / 4) - 1);
        }
        ended();
    }

    private final AtomicInteger ended = new AtomicInteger();

    private void ended() {
        if (ended.incrementAndGet() == workloads) done.countDown();
    }

    /** Heap used after a full GC, at the end of quarter {@code index} (0..3) of the finishes. */
    private void quarter(int index) {
        System.gc();
        quarterHeap[index] = memory.getHeapMemoryUsage().getUsed();
        int objects = -1;
        try {
            objects = api.get(WorkloadWatch.COLLECTION).path("items").size();
        } catch (Exception e) {
            System.err.println("list failed: " + e);
        }
        System.out.printf(Locale.ROOT, "  quarter %d done (%d finished): heap after full GC %.1f MiB with %d Workloads in the store; load %s%n",
                index + 1, finished.get(), quarterHeap[index] / 1048576.0, objects, CpuSampler.loadAverage());
    }

    private void sampleQuietly() {
        try {
            sample();
        } catch (Exception e) {
            System.err.println("sample failed: " + e);
        }
    }

    private synchronized void sample() throws Exception {
        int objects = api.get(WorkloadWatch.COLLECTION).path("items").size();
        Sample sample = new Sample(clock.millis(), finished.get(), api.dataBytes(), objects, memory.getHeapMemoryUsage().getUsed());
        samples.add(sample);
        System.out.printf(Locale.ROOT, "  %s: finished %d, admitted %d, refused %d; store %.1f MiB on disk, %d Workloads listed; heap used %.0f MiB; load %s%n",
                java.time.LocalTime.now(clock).withNano(0), sample.finished(), admitted.get(), refused.get(), sample.dataBytes() / 1048576.0,
                objects, sample.heapUsed() / 1048576.0, CpuSampler.loadAverage());
    }

    private int report(long wallMillis, WorkloadWatch watch, CpuSampler cpu) {
        int quarterSize = workloads / 4;
        int earlierMax = 0;
        int lastMax = 0;
        long earlierBytes = 0;
        long lastBytes = 0;
        for (Sample sample : samples.subList(0, samples.size() - 1)) {
            if (sample.finished() < 3 * quarterSize) {
                earlierMax = Math.max(earlierMax, sample.objects());
                earlierBytes = Math.max(earlierBytes, sample.dataBytes());
            } else {
                lastMax = Math.max(lastMax, sample.objects());
                lastBytes = Math.max(lastBytes, sample.dataBytes());
            }
        }
        Sample after = samples.get(samples.size() - 1);
        // bounded: the last quarter holds no more than the store already reached before it (the retained
        // window follows the finish rate, which a shared machine moves a lot), and the retention empties it
        boolean bounded = lastMax <= 1.25 * earlierMax + inFlightLimit && lastBytes <= 1.25 * earlierBytes
                && after.objects() <= inFlightLimit;
        double heapRatio = (double) quarterHeap[3] / quarterHeap[0];
        boolean flat = quarterHeap[0] > 0 && heapRatio <= 1.1;
        LatencySample admission = new LatencySample("time to admission (POST start to watch Admitted)",
                java.util.Arrays.stream(admissionMillis, 0, Math.min(admitted.get(), workloads)).asDoubleStream().toArray());
        StringBuilder out = new StringBuilder(System.lineSeparator());
        out.append(String.format(Locale.ROOT, "Soak of %d workloads: %.1f s, %.1f workloads/s finished end to end; machine busy %.0f %%; load %s%n",
                workloads, wallMillis / 1000.0, finished.get() * 1000.0 / wallMillis, cpu.busyFraction() * 100, CpuSampler.loadAverage()));
        out.append(String.format(Locale.ROOT, "created-and-finished %d, refused creates %d, failed finishes %d, other answers %s%n",
                finished.get(), refused.get(), finishFailures.get(), statuses));
        out.append(String.format(Locale.ROOT, "watch: %d events, %d re-watches, %d re-lists%n", watch.events.get(), watch.rewatches.get(), watch.relists.get()));
        out.append("| Sample | n | p50 | p90 | p99 | max |\n|---|---|---|---|---|---|\n").append(admission.row()).append(System.lineSeparator());
        out.append(String.format(Locale.ROOT, "| Heap after full GC (MiB) | Q1 %.1f | Q2 %.1f | Q3 %.1f | Q4 %.1f | Q4/Q1 %.2f | flat (<= 1.1): %s |%n",
                quarterHeap[0] / 1048576.0, quarterHeap[1] / 1048576.0, quarterHeap[2] / 1048576.0, quarterHeap[3] / 1048576.0, heapRatio,
                flat ? "met" : "NOT met"));
        out.append(String.format(Locale.ROOT, "| Store | quarters 1-3 max %d Workloads, %.1f MiB | last quarter max %d Workloads, %.1f MiB"
                + " | after the retention %d | bounded: %s |%n", earlierMax, earlierBytes / 1048576.0, lastMax, lastBytes / 1048576.0,
                after.objects(), bounded ? "met" : "NOT met"));
        out.append(String.format(Locale.ROOT, "after the retention (plus one create to run a pass): %d Workloads listed, %.1f MiB on disk%n",
                after.objects(), after.dataBytes() / 1048576.0));
        System.out.print(out);
        if (refused.get() > 0 || finishFailures.get() > 0) {
            System.out.println("ERROR: refused creates or failed finishes; this run measures nothing");
            return 3;
        }
        return flat && bounded ? 0 : 1;
    }
}
