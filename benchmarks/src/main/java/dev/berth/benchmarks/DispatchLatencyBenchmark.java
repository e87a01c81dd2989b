package dev.berth.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.manager.api.ObjectCountLimits;
import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.store.MemoryObjectStore;
import dev.berth.system.BerthSystem;
import dev.berth.system.RunningWorker;
import dev.berth.system.WorkerClusterSpec;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Submit-to-running latency and end-to-end throughput of the whole system on one machine: N virtual
 * clusters (each its own JVM), an agent per cluster and the manager, as {@link BerthSystem} starts them.
 *
 * <ol>
 *   <li>Latency: one Job at a time through the manager's HTTP API, time from the POST to a pod of
 *   the Job seen Running on its worker cluster; interleaved with the floor: the same Job created
 *   directly (unsuspended) on a worker cluster with fabric8, time to its pod Running.</li>
 *   <li>Throughput: N short Jobs submitted as fast as the API takes them (bounded in-flight), and the
 *   rates at which their pods start and succeed on the workers and the manager marks them Finished.</li>
 * </ol>
 *
 * Options: {@code --clusters 3 --profile cpu:2 --latency-jobs 200 --warmup 10 --throughput-jobs 1000
 * --runtime PT0.2S --in-flight 32}. Targets (issue 16): latency p50 at most 1.3x the floor's; the rate at which
 * Berth's jobs succeed at least 0.8x the rate of the same jobs POSTed straight to the workers, in the same run.
 */
public final class DispatchLatencyBenchmark {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String FLOOR_NAMESPACE = "floor";
    private static final Duration JOB_TIMEOUT = Duration.ofSeconds(120);

    private final BerthSystem system;
    private final List<KubernetesClient> workers;
    private final PodProgress progress;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private DispatchLatencyBenchmark(BerthSystem system) {
        this.system = system;
        this.workers = system.workers().stream().map(RunningWorker::client).toList();
        this.progress = new PodProgress(workers);
    }

    public static void main(String[] args) throws Exception {
        Options options = Options.parse(args);
        System.out.println("load average before start: " + CpuSampler.loadAverage() + " (" + Runtime.getRuntime().availableProcessors() + " cores)");
        Path dir = Files.createTempDirectory("berth-dispatch-benchmark");
        List<WorkerClusterSpec> clusters = new ArrayList<>();
        for (int i = 0; i < options.clusters; i++) clusters.add(new WorkerClusterSpec("bench-" + i, options.profile, false));
        long startingAt = System.nanoTime();
        BerthSystem system;
        try {
            system = BerthSystem.start(dir, clusters, new MemoryObjectStore(Clock.systemUTC()), SchedulerOptions.DEFAULTS,
                    "127.0.0.1", 0, List.of(DispatchQueues.write(dir.resolve("queues"), clusters.stream().map(WorkerClusterSpec::name).toList())));
        } catch (RuntimeException e) {
            // BerthSystem starts every cluster JVM at once, each with a 60 s ready timeout: on two cores already
            // busy with other work, ten of them can miss it. Exiting closes the started clusters' stdin, which stops them.
            System.err.println("the system did not start: " + e.getMessage() + "; load " + CpuSampler.loadAverage());
            System.exit(2);
            return;
        }
        System.out.printf(Locale.ROOT, "%d virtual clusters (profile %s), agents and manager started in %.1f s; load %s%n",
                options.clusters, options.profile, seconds(System.nanoTime() - startingAt), CpuSampler.loadAverage());
        // every job stays in the one namespace: the default per-namespace limit (1,000 Jobs) would refuse the rest
        int total = options.warmup + options.latencyJobs + options.throughputJobs + 100;
        system.manager().objectCountLimits(ObjectCountLimits.parse("jobs.batch=" + total + ",workloads.kueue.x-k8s.io=" + total
                + ",pods=" + Math.max(5000, total)));
        int exit;
        try {
            DispatchLatencyBenchmark benchmark = new DispatchLatencyBenchmark(system);
            exit = benchmark.run(options);
            benchmark.progress.close();
        } finally {
            system.close();
        }
        System.exit(exit);
    }

    private int run(Options options) throws Exception {
        for (KubernetesClient worker : workers) {
            worker.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(FLOOR_NAMESPACE).endMetadata().build())
                    .createOr(existing -> existing.update());
        }
        List<double[]> pairs = latency(options.warmup, options.latencyJobs);
        LatencySample berth = new LatencySample("Berth: POST to manager -> pod Running", pairs.stream().mapToDouble(p -> p[0]).toArray());
        LatencySample floor = new LatencySample("Floor: fabric8 create on the worker -> pod Running", pairs.stream().mapToDouble(p -> p[1]).toArray());
        double ratio = berth.percentile(50) / floor.percentile(50);
        System.out.println();
        System.out.printf(Locale.ROOT, "Latency, %d jobs one at a time each way (after %d warm-up pairs); load %s%n",
                pairs.size(), options.warmup, CpuSampler.loadAverage());
        System.out.println("| Path | Jobs | p50 | p90 | p99 | max |");
        System.out.println("|---|---|---|---|---|---|");
        System.out.println(berth.row());
        System.out.println(floor.row());
        System.out.printf(Locale.ROOT, "p50 ratio Berth / floor: %.2fx (target <= 1.3x: %s)%n", ratio, ratio <= 1.3 ? "met" : "MISSED");
        // the direct path brackets Berth's run, so a drift in the machine's load shows as two different direct rates
        double directBefore = directThroughput(options, "dt-a-");
        double berthRate = throughput(options);
        double directAfter = directThroughput(options, "dt-b-");
        double direct = (directBefore + directAfter) / 2;
        double throughputRatio = berthRate / direct;
        System.out.printf(Locale.ROOT, "%nEnd-to-end throughput, jobs succeeded per second: Berth %.2f, direct %.2f before and %.2f after"
                + " (mean %.2f); ratio %.2fx (target >= 0.8x: %s)%n", berthRate, directBefore, directAfter, direct, throughputRatio,
                throughputRatio >= 0.8 ? "met" : "MISSED");
        return ratio <= 1.3 && throughputRatio >= 0.8 ? 0 : 1;
    }

    /**
     * The same one-pod Jobs, unsuspended and without queue, POSTed with the same HTTP client straight to the
     * workers' API servers (round robin, the same bound on requests in flight); returns the jobs whose pod
     * succeeded per second, from the first POST to the last success.
     */
    private double directThroughput(Options options, String prefix) throws Exception {
        int n = options.throughputJobs;
        Semaphore inFlight = new Semaphore(options.inFlight);
        List<CompletableFuture<Void>> posts = new ArrayList<>();
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
            String name = String.format(Locale.ROOT, "%s%05d", prefix, i);
            KubernetesClient worker = workers.get(i % workers.size());
            String url = worker.getMasterUrl().toString().replaceAll("/$", "") + "/apis/batch/v1/namespaces/" + FLOOR_NAMESPACE + "/jobs";
            inFlight.acquire();
            posts.add(post(url, BenchJobs.direct(name, FLOOR_NAMESPACE, options.runtime)).whenComplete((ok, failed) -> inFlight.release()));
        }
        CompletableFuture.allOf(posts.toArray(CompletableFuture[]::new)).get(JOB_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        long submittedAt = System.nanoTime();
        long[] succeeded = new long[n];
        for (int i = 0; i < n; i++) {
            succeeded[i] = progress.succeeded(String.format(Locale.ROOT, "%s%05d", prefix, i)).get(600, TimeUnit.SECONDS);
        }
        System.out.println();
        System.out.printf(Locale.ROOT, "Direct throughput (%s), %d jobs straight to the %d workers' APIs%n", prefix, n, workers.size());
        System.out.println("| Stage | Jobs | Last at | Overall rate | Sustained rate (10th to 90th percentile) |");
        System.out.println("|---|---|---|---|---|");
        System.out.printf(Locale.ROOT, "| Accepted by the workers' APIs | %d | %.2f s | %.0f jobs/s | |%n", n, seconds(submittedAt - start), n / seconds(submittedAt - start));
        System.out.println(rateRow("Pod Succeeded on a worker", succeeded, start));
        return n / seconds(Arrays.stream(succeeded).max().orElseThrow() - start);
    }

    /** One Berth job, then one floor job, each waited for; returns {berthMillis, floorMillis} per measured pair. */
    private List<double[]> latency(int warmup, int measured) throws Exception {
        List<double[]> pairs = new ArrayList<>();
        for (int i = 0; i < warmup + measured; i++) {
            String berthJob = String.format(Locale.ROOT, "lat-%05d", i);
            long submitted = System.nanoTime();
            submit(BenchJobs.forBerth(berthJob, "PT0.5S")).get(JOB_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            long berthNanos = progress.running(berthJob).get(JOB_TIMEOUT.toSeconds(), TimeUnit.SECONDS) - submitted;

            String floorJob = String.format(Locale.ROOT, "floor-%05d", i);
            KubernetesClient worker = workers.get(i % workers.size());
            long created = System.nanoTime();
            worker.batch().v1().jobs().inNamespace(FLOOR_NAMESPACE).resource(BenchJobs.direct(floorJob, FLOOR_NAMESPACE, "PT0.5S")).create();
            long floorNanos = progress.running(floorJob).get(JOB_TIMEOUT.toSeconds(), TimeUnit.SECONDS) - created;
            if (i >= warmup) pairs.add(new double[] {berthNanos / 1e6, floorNanos / 1e6});
        }
        return pairs;
    }

    /** Berth's run; returns the jobs whose pod succeeded on a worker per second, from the first POST to the last success. */
    private double throughput(Options options) throws Exception {
        int n = options.throughputJobs;
        CpuSampler cpu = new CpuSampler();
        List<String> loads = new ArrayList<>();
        Semaphore inFlight = new Semaphore(options.inFlight);
        List<CompletableFuture<Void>> posts = new ArrayList<>();
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
            inFlight.acquire();
            posts.add(submit(BenchJobs.forBerth(String.format(Locale.ROOT, "tp-%05d", i), options.runtime))
                    .whenComplete((ok, failed) -> inFlight.release()));
        }
        CompletableFuture.allOf(posts.toArray(CompletableFuture[]::new)).get(JOB_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        long submittedAt = System.nanoTime();
        long[] running = new long[n];
        long[] succeeded = new long[n];
        long finishedAt = -1;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(600);
        while (System.nanoTime() < deadline) {
            loads.add(CpuSampler.loadAverage().split(" ")[0]);
            if (finishedAt < 0 && finishedWorkloads("tp-") >= n) finishedAt = System.nanoTime();
            if (finishedAt >= 0) break;
            Thread.sleep(1000); // each poll lists every Workload: polling faster would load the manager it measures
        }
        for (int i = 0; i < n; i++) {
            String job = String.format(Locale.ROOT, "tp-%05d", i);
            running[i] = progress.running(job).getNow(-1L);
            succeeded[i] = progress.succeeded(job).getNow(-1L);
        }
        double busy = cpu.busyFraction();
        System.out.println();
        System.out.printf(Locale.ROOT, "Throughput, %d jobs (runtime %s, %d POSTs in flight) over %d clusters%n",
                n, options.runtime, options.inFlight, workers.size());
        System.out.println("| Stage | Jobs | Last at | Overall rate | Sustained rate (10th to 90th percentile) |");
        System.out.println("|---|---|---|---|---|");
        System.out.printf(Locale.ROOT, "| Accepted by the manager's API | %d | %.2f s | %.0f jobs/s | |%n", n, seconds(submittedAt - start), n / seconds(submittedAt - start));
        System.out.println(rateRow("Pod Running on a worker (dispatched)", running, start));
        System.out.println(rateRow("Pod Succeeded on a worker", succeeded, start));
        if (finishedAt >= 0) {
            System.out.printf(Locale.ROOT, "| Workload Finished in the manager | %d | %.2f s | %.0f jobs/s | |%n", n, seconds(finishedAt - start), n / seconds(finishedAt - start));
        } else {
            System.out.println("| Workload Finished in the manager | not all within 600 s | | | |");
        }
        System.out.printf(Locale.ROOT, "CPU busy (whole machine, %d cores) during the run: %.0f %%; 1-min load average samples: %s%n",
                Runtime.getRuntime().availableProcessors(), busy * 100, String.join(" ", sampleEvery(loads, 8)));
        long lastSucceeded = Arrays.stream(succeeded).max().orElse(-1);
        return Arrays.stream(succeeded).anyMatch(t -> t < 0) ? 0 : n / seconds(lastSucceeded - start);
    }

    private static String rateRow(String stage, long[] times, long start) {
        long[] seen = Arrays.stream(times).filter(t -> t >= 0).sorted().toArray();
        if (seen.length < 10) return "| " + stage + " | " + seen.length + " | | | |";
        int low = seen.length / 10;
        int high = seen.length * 9 / 10;
        double sustained = (high - low) / seconds(seen[high] - seen[low]);
        double last = seconds(seen[seen.length - 1] - start);
        return String.format(Locale.ROOT, "| %s | %d | %.2f s | %.0f jobs/s | %.0f jobs/s |", stage, seen.length, last, seen.length / last, sustained);
    }

    private static List<String> sampleEvery(List<String> values, int step) {
        List<String> picked = new ArrayList<>();
        for (int i = 0; i < values.size(); i += step) picked.add(values.get(i));
        if (!values.isEmpty() && (values.size() - 1) % step != 0) picked.add(values.get(values.size() - 1));
        return picked;
    }

    private CompletableFuture<Void> submit(Job job) {
        return post(system.apiUrl() + "/apis/batch/v1/namespaces/" + DispatchQueues.NAMESPACE + "/jobs", job);
    }

    private CompletableFuture<Void> post(String url, Job job) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(url))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(Serialization.asJson(job))).build();
        return http.sendAsync(request, HttpResponse.BodyHandlers.ofString()).thenAccept(response -> {
            if (response.statusCode() / 100 != 2) {
                throw new IllegalStateException("POST job " + job.getMetadata().getName() + ": " + response.statusCode() + " " + response.body());
            }
        });
    }

    /** Workloads in the benchmark namespace whose name contains {@code marker} and whose Finished condition is True. */
    private int finishedWorkloads(String marker) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(system.apiUrl() + "/apis/kueue.x-k8s.io/v1beta2/namespaces/"
                + DispatchQueues.NAMESPACE + "/workloads")).GET().build();
        JsonNode list = JSON.readTree(http.send(request, HttpResponse.BodyHandlers.ofString()).body());
        int finished = 0;
        for (JsonNode item : list.path("items")) {
            if (!item.path("metadata").path("name").asText().contains(marker)) continue;
            for (JsonNode condition : item.path("status").path("conditions")) {
                if ("Finished".equals(condition.path("type").asText()) && "True".equals(condition.path("status").asText())) finished++;
            }
        }
        return finished;
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }

    private record Options(int clusters, String profile, int latencyJobs, int warmup, int throughputJobs, String runtime, int inFlight) {
        static Options parse(String[] args) {
            int clusters = 3; // the quickstart's three
            String profile = "cpu:2";
            int latencyJobs = 200;
            int warmup = 10;
            int throughputJobs = 1000;
            String runtime = "PT0.2S";
            int inFlight = 32;
            for (int i = 0; i + 1 < args.length; i += 2) {
                String value = args[i + 1];
                switch (args[i]) {
                    case "--clusters" -> clusters = Integer.parseInt(value);
                    case "--profile" -> profile = value;
                    case "--latency-jobs" -> latencyJobs = Integer.parseInt(value);
                    case "--warmup" -> warmup = Integer.parseInt(value);
                    case "--throughput-jobs" -> throughputJobs = Integer.parseInt(value);
                    case "--runtime" -> runtime = value;
                    case "--in-flight" -> inFlight = Integer.parseInt(value);
                    default -> throw new IllegalArgumentException("unknown option " + args[i]);
                }
            }
            return new Options(clusters, profile, latencyJobs, warmup, throughputJobs, runtime, inFlight);
        }
    }
}
