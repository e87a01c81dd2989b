package dev.berth.benchmarks;

import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Issue 16 target 1: a Kueue perf scenario replayed in real time through the manager's HTTPS API
 * ({@link ApiBench}: admin token, RBAC, audit, file store; no worker clusters, so admission only).
 * Workloads are POSTed on the scenario's schedule by a bounded pool of clients; ONE watch on every
 * namespace's Workloads follows admissions; {@code runtime} after a workload's Admitted turns True it
 * is marked finished by a JSON patch of its status appending Finished=True, as Kueue's perf runner
 * does through its API server. An eviction (Admitted back to False) cancels the finish; the workload
 * runs again from the start when re-admitted.
 *
 * <p>Usage: {@code KueuePerfReplay baseline|large --through-api [--clients 16] [--timeout-seconds N]}.
 * Exit 0 target met, 1 missed, 3 creates refused (the run measures nothing), 4 did not finish in time.
 */
final class ApiPerfReplay implements WorkloadWatch.Listener {
    /** Kueue's published time-to-admission figures for its scenarios, as issue 16 quotes them. */
    static final String KUEUE_PUBLISHED = "16.5 s / 76.8 s / 215 s";
    private static final long START_DELAY_MILLIS = 1_000;

    /** What the replay knows about one workload; its fields change on the state thread, sentMillis on a client. */
    private static final class Tracked {
        final String namespace;
        final String name;
        final WorkloadClass workloadClass;
        final long dueMillis;
        volatile long sentMillis = -1;
        long createdMillis = -1;
        long firstAdmittedMillis = -1;
        long runStartMillis = -1;
        long finishDueRanMillis = -1;
        volatile long finishSentMillis = -1;
        long finishedMillis = -1;
        boolean running;
        boolean finishing;
        boolean done;
        ScheduledFuture<?> finishTask;

        Tracked(String namespace, String name, WorkloadClass workloadClass, long dueMillis) {
            this.namespace = namespace;
            this.name = name;
            this.workloadClass = workloadClass;
            this.dueMillis = dueMillis;
        }
    }

    private final PerfScenario scenario;
    private final ApiBench api;
    private final int clients;
    private final Clock clock = Clock.systemUTC();
    private final ScheduledExecutorService stateThread = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "api-replay-state");
        thread.setDaemon(true);
        return thread;
    });
    private final ExecutorService creators;
    private final ExecutorService finishers;
    private final CountDownLatch done = new CountDownLatch(1);

    // State thread only.
    private final Map<String, Tracked> workloads = new HashMap<>();
    private final UsageIntegral usage = new UsageIntegral();
    private final Map<Integer, Integer> refusedByStatus = new TreeMap<>();
    private final Map<Integer, Integer> finishFailuresByStatus = new TreeMap<>();
    private int created;
    private int admitted;
    private int finished;
    private int ended;
    private long preemptions;
    private final PreemptionLosses losses;
    private long firstSentMillis = -1;
    private long lastFinishMillis;

    ApiPerfReplay(PerfScenario scenario, ApiBench api, int clients) {
        this.scenario = scenario;
        this.losses = new PreemptionLosses(scenario);
        this.api = api;
        this.clients = clients;
        this.creators = Executors.newFixedThreadPool(clients, daemon("create"));
        this.finishers = Executors.newFixedThreadPool(clients, daemon("finish"));
    }

    static int main(PerfScenario inProcess, String[] args) throws Exception {
        int clients = 16;
        long timeoutSeconds = -1;
        int warmup = 0;
        int warmRuns = 0;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--through-api" -> { }
                case "--clients" -> clients = Integer.parseInt(args[++i]);
                case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                case "--warm-runs" -> warmRuns = Integer.parseInt(args[++i]);
                case "--timeout-seconds" -> timeoutSeconds = Long.parseLong(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                        + "; usage: KueuePerfReplay baseline|large --through-api [--clients 16] [--warmup 0] [--warm-runs 0] [--timeout-seconds N]");
            }
        }
        // issue 16's targets through the API: baseline 1.3x (the in-process replay's is 1.25x), large 2x
        PerfScenario scenario = new PerfScenario(inProcess.name() + " through the API", inProcess.topology(), inProcess.classes(),
                inProcess.name().equals("baseline") ? 1.3 : 2.0);
        if (timeoutSeconds < 0) timeoutSeconds = 20 * scenario.lowerBoundMillis() / 1000 + 900;
        System.out.printf(Locale.ROOT, "Replaying %s: %d workloads, lower bound %.1f s, %d clients; load average %s (%d cores, %s)%n",
                scenario.name(), scenario.workloadCount(), scenario.lowerBoundMillis() / 1000.0, clients, CpuSampler.loadAverage(),
                Runtime.getRuntime().availableProcessors(), Runtime.version());
        Path manifests = PerfQueueManifests.write(java.nio.file.Files.createTempDirectory("berth-perf-queues"), scenario.topology());
        int perNamespace = 0;
        for (WorkloadClass workloadClass : scenario.classes()) perNamespace += workloadClass.countPerQueue();
        int queues = scenario.topology().queueCount();
        for (int run = 1; run <= warmRuns; run++) ReplayWarmUps.warmRun(scenario, manifests, clients, timeoutSeconds, run);
        try (ApiBench api = ApiBench.start("api-replay", List.of(manifests), null, perNamespace + warmup / queues + 100)) {
            System.out.printf("manager up at %s (store %s, audit log in %s); load %s%n", api.baseUrl, api.data,
                    api.home.resolve("security"), CpuSampler.loadAverage());
            if (warmup > 0) ReplayWarmUps.warmUp(api, scenario.topology(), warmup, clients);
            return new ApiPerfReplay(scenario, api, clients).run(timeoutSeconds);
        }
    }

    int run(long timeoutSeconds) throws Exception {
        CpuSampler cpu = new CpuSampler();
        ThreadCpu threadCpu = new ThreadCpu();
        try (WorkloadWatch watch = new WorkloadWatch(api, this)) {
            watch.start();
            scheduleCreations();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
            while (!done.await(10, TimeUnit.SECONDS)) {
                System.out.println(stateThread.submit(this::progress).get());
                if (System.nanoTime() > deadline) {
                    System.out.println("DID NOT FINISH within " + timeoutSeconds + " s: " + stateThread.submit(this::progress).get());
                    System.out.print(stateThread.submit(() -> details(watch, cpu)).get());
                    return 4;
                }
            }
            ReplayResult result = stateThread.submit(this::result).get();
            System.out.print(result.render());
            System.out.print(stateThread.submit(() -> details(watch, cpu)).get());
            System.out.println(threadCpu.line());
            System.out.println(api.priorityCheck(scenario.topology().namespace(0), scenario.classes()));
            int refused = stateThread.submit(() -> refusedByStatus.values().stream().mapToInt(Integer::intValue).sum()).get();
            if (refused > 0) {
                System.out.println("ERROR: " + refused + " creates refused " + refusedByStatus + "; this run measures nothing");
                return 3;
            }
            return result.meetsTarget() ? 0 : 1;
        } finally {
            stateThread.shutdownNow();
            creators.shutdownNow();
            finishers.shutdownNow();
        }
    }

    private void scheduleCreations() {
        long baseNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(START_DELAY_MILLIS);
        long baseMillis = clock.millis() + START_DELAY_MILLIS;
        stateThread.execute(() -> usage.change(baseMillis, 0));
        for (int queue = 0; queue < scenario.topology().queueCount(); queue++) {
            String namespace = scenario.topology().namespace(queue);
            for (WorkloadClass workloadClass : scenario.classes()) {
                for (int index = 0; index < workloadClass.countPerQueue(); index++) {
                    long offset = index * workloadClass.intervalMillis();
                    Tracked workload = new Tracked(namespace, workloadClass.name() + "-" + index, workloadClass, baseMillis + offset);
                    stateThread.schedule(() -> create(workload),
                            baseNanos + TimeUnit.MILLISECONDS.toNanos(offset) - System.nanoTime(), TimeUnit.NANOSECONDS);
                }
            }
        }
    }

    private void create(Tracked workload) {
        workloads.put(workload.namespace + "/" + workload.name, workload);
        String body = WorkloadJson.workload(workload.namespace, workload.name, QueueTopology.LOCAL_QUEUE,
                workload.workloadClass.priority(), workload.workloadClass.cpuMillis());
        creators.execute(() -> {
            workload.sentMillis = clock.millis();
            int status = api.post(WorkloadJson.collectionPath(workload.namespace), body);
            long answered = clock.millis();
            stateThread.execute(() -> created(workload, status, answered));
        });
    }

    private void created(Tracked workload, int status, long answeredMillis) {
        firstSentMillis = firstSentMillis < 0 ? workload.sentMillis : Math.min(firstSentMillis, workload.sentMillis);
        if (status == 201) {
            workload.createdMillis = answeredMillis;
            created++;
        } else {
            refusedByStatus.merge(status, 1, Integer::sum);
            end(workload);
        }
    }

    /** From the watch's thread. */
    @Override
    public void workload(String namespace, String name, boolean isAdmitted, boolean isFinished) {
        stateThread.execute(() -> observed(namespace + "/" + name, isAdmitted));
    }

    private void observed(String key, boolean isAdmitted) {
        Tracked workload = workloads.get(key);
        if (workload == null || workload.done || workload.finishing) return;
        long now = clock.millis();
        if (isAdmitted && !workload.running) {
            if (workload.firstAdmittedMillis < 0) {
                workload.firstAdmittedMillis = now;
                admitted++;
            }
            workload.running = true;
            workload.runStartMillis = now;
            usage.change(now, workload.workloadClass.cpuMillis());
            workload.finishTask = stateThread.schedule(() -> finish(workload), workload.workloadClass.runtimeMillis(), TimeUnit.MILLISECONDS);
        } else if (!isAdmitted && workload.running) {
            // evicted (preempted): the job stops and runs again from the start when re-admitted
            workload.finishTask.cancel(false);
            workload.finishTask = null;
            workload.running = false;
            usage.change(now, -workload.workloadClass.cpuMillis());
            losses.preempted(workload.workloadClass, now - workload.runStartMillis);
            preemptions++;
        }
    }

    private void finish(Tracked workload) {
        workload.finishDueRanMillis = clock.millis();
        workload.finishTask = null;
        workload.finishing = true;
        String path = WorkloadJson.statusPath(workload.namespace, workload.name);
        finishers.execute(() -> {
            int status = -1;
            workload.finishSentMillis = clock.millis();
            for (int attempt = 0; attempt < 5 && status != 200; attempt++) {
                status = api.jsonPatch(path, WorkloadJson.finishedPatch(clock.instant()));
            }
            int answered = status;
            long now = clock.millis();
            stateThread.execute(() -> finished(workload, answered, now));
        });
    }

    private void finished(Tracked workload, int status, long nowMillis) {
        usage.change(clock.millis(), -workload.workloadClass.cpuMillis());
        workload.running = false;
        if (status == 200) {
            finished++;
            workload.finishedMillis = nowMillis;
            lastFinishMillis = Math.max(lastFinishMillis, nowMillis);
        } else {
            finishFailuresByStatus.merge(status, 1, Integer::sum);
        }
        end(workload);
    }

    private void end(Tracked workload) {
        workload.done = true;
        if (++ended == scenario.workloadCount()) done.countDown();
    }

    private String progress() {
        long now = clock.millis();
        long maxLag = 0;
        int due = 0;
        for (Tracked workload : workloads.values()) {
            due++;
            if (workload.createdMillis < 0 && !workload.done) maxLag = Math.max(maxLag, now - workload.dueMillis);
        }
        return String.format(Locale.ROOT, "  %s: due %d, created %d, admitted %d, finished %d, preemptions %d, oldest create waiting %.1f s, "
                + "refused %s, finish failures %s; load %s", java.time.LocalTime.now(clock).withNano(0), due, created, admitted, finished,
                preemptions, maxLag / 1000.0, refusedByStatus, finishFailuresByStatus, CpuSampler.loadAverage());
    }

    private ReplayResult result() {
        Map<String, long[]> latencies = new LinkedHashMap<>();
        Map<String, List<Long>> collected = new LinkedHashMap<>();
        for (WorkloadClass workloadClass : scenario.classes()) collected.put(workloadClass.name(), new ArrayList<>());
        for (Tracked workload : workloads.values()) {
            if (workload.firstAdmittedMillis >= 0) {
                collected.get(workload.workloadClass.name()).add(workload.firstAdmittedMillis - workload.sentMillis);
            }
        }
        collected.forEach((name, values) -> latencies.put(name, values.stream().mapToLong(Long::longValue).toArray()));
        double meanUsage = usage.meanFraction(firstSentMillis, lastFinishMillis, scenario.topology().totalNominalCpuMillis());
        return new ReplayResult(scenario, lastFinishMillis - firstSentMillis, latencies, meanUsage, preemptions, -1);
    }

    private String details(WorkloadWatch watch, CpuSampler cpu) {
        StringBuilder out = new StringBuilder(System.lineSeparator());
        out.append("Through the API (time to admission from the POST's start to the watch's Admitted=True):").append(System.lineSeparator());
        Map<String, List<Double>> perClass = new LinkedHashMap<>();
        for (WorkloadClass workloadClass : scenario.classes()) perClass.put(workloadClass.name(), new ArrayList<>());
        List<Double> sendLag = new ArrayList<>();
        List<Double> createdLag = new ArrayList<>();
        List<Double> createLatency = new ArrayList<>();
        List<Double> finishLatency = new ArrayList<>();
        List<Double> finishTaskLag = new ArrayList<>();
        List<Double> finishSendLag = new ArrayList<>();
        List<Double> finishAnswerLag = new ArrayList<>();
        for (Tracked workload : workloads.values()) {
            if (workload.finishedMillis >= 0) {
                // the run's end as the replay sees it: runtime after the watch showed it admitted
                long runEnd = workload.runStartMillis + workload.workloadClass.runtimeMillis();
                finishLatency.add((double) (workload.finishedMillis - workload.finishSentMillis));
                finishTaskLag.add((double) (workload.finishDueRanMillis - runEnd));
                finishSendLag.add((double) (workload.finishSentMillis - runEnd));
                finishAnswerLag.add((double) (workload.finishedMillis - runEnd));
            }
            if (workload.firstAdmittedMillis >= 0) {
                perClass.computeIfAbsent(workload.workloadClass.name(), n -> new ArrayList<>())
                        .add((double) (workload.firstAdmittedMillis - workload.sentMillis));
            }
            if (workload.createdMillis >= 0) {
                sendLag.add((double) (workload.sentMillis - workload.dueMillis));
                createdLag.add((double) (workload.createdMillis - workload.dueMillis));
                createLatency.add((double) (workload.createdMillis - workload.sentMillis));
            }
        }
        out.append("| Sample | n | p50 | p90 | p99 | max |").append(System.lineSeparator()).append("|---|---|---|---|---|---|").append(System.lineSeparator());
        perClass.forEach((name, values) -> out.append(sample("time to admission, " + name, values).row()).append(System.lineSeparator()));
        out.append(sample("create sent after its scheduled time", sendLag).row()).append(System.lineSeparator());
        out.append(sample("create answered 201 after its scheduled time", createdLag).row()).append(System.lineSeparator());
        out.append(sample("create latency (sent to 201)", createLatency).row()).append(System.lineSeparator());
        out.append(sample("finish patch latency (sent to 200)", finishLatency).row()).append(System.lineSeparator());
        out.append(sample("finish timer fired after the run's end", finishTaskLag).row()).append(System.lineSeparator());
        out.append(sample("finish patch sent after the run's end (timer + a free client)", finishSendLag).row()).append(System.lineSeparator());
        out.append(sample("finish answered 200 after the run's end (quota held past the runtime)", finishAnswerLag).row()).append(System.lineSeparator());
        out.append(losses.line());
        out.append(String.format(Locale.ROOT, "Kueue's published time to admission (issue 16): %s%n", KUEUE_PUBLISHED));
        double lastCreated = createdLag.isEmpty() ? 0 : createdLag.stream().mapToDouble(Double::doubleValue).max().orElse(0);
        out.append(String.format(Locale.ROOT, "the API %s the schedule: the last create was answered %.1f s after it was due%n",
                lastCreated > 1000 ? "did NOT keep up with" : "kept up with", lastCreated / 1000.0));
        out.append(String.format(Locale.ROOT, "creates 201: %d, refused: %s; finish patches 200: %d, failed: %s; preemptions (Admitted back to False): %d%n",
                created, refusedByStatus, finished, finishFailuresByStatus, preemptions));
        out.append(String.format(Locale.ROOT, "watch: %d events, %d re-watches, %d re-lists; machine busy %.0f %% during the run; load %s%n",
                watch.events.get(), watch.rewatches.get(), watch.relists.get(), cpu.busyFraction() * 100, CpuSampler.loadAverage()));
        out.append(String.format(Locale.ROOT, "batch window %d ms; %d clients each for creates and finish patches%n",
                ApiBench.batchWindow().toMillis(), clients));
        return out.toString();
    }

    private static LatencySample sample(String name, List<Double> values) {
        return new LatencySample(name, values.stream().mapToDouble(Double::doubleValue).toArray());
    }

    static java.util.concurrent.ThreadFactory daemon(String prefix) {
        java.util.concurrent.atomic.AtomicInteger count = new java.util.concurrent.atomic.AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, prefix + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
