package dev.berth.benchmarks;

import dev.berth.manager.core.AdmissionController;
import dev.berth.manager.core.CycleReport;
import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.core.WorkloadStatus;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.protocol.Conditions;
import java.time.Clock;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Replays a Kueue scheduler performance scenario in real time against the {@link AdmissionController}:
 * workloads are created on schedule, "run" for their runtime once admitted, then finish.
 *
 * <p>The controller is confined to one state thread, a single-thread scheduled executor; every
 * creation, finish and scheduling slice runs there. Scheduling is batched as in the manager: an
 * event asks for a pass, which starts when the scheduling batch window has passed and serves every
 * event queued before it. A pass that stops at its slice's budget asks for its next slice at once,
 * which runs after the events that arrived meanwhile ({@link AdmissionController#scheduleSlice()}).
 *
 * <p>Usage: {@code java -cp benchmarks/target/benchmarks.jar dev.berth.benchmarks.KueuePerfReplay baseline|large}; with
 * {@code --through-api} the same scenario goes through the manager's HTTPS API instead ({@link ApiPerfReplay}).
 */
public final class KueuePerfReplay implements WorkloadStatusSink {
    private static final long START_DELAY_MILLIS = 200;
    /**
     * The manager's scheduling batch window ({@link SchedulerOptions#schedulingBatchWindow()}): a pass
     * starts this long after the first event that asks for it. {@code -Dberth.replay.batchMillis=0}
     * decides every event at once instead.
     */
    static final long BATCH_MILLIS = Long.getLong("berth.replay.batchMillis",
            SchedulerOptions.DEFAULTS.schedulingBatchWindow().toMillis());

    private final PerfScenario scenario;
    private final Clock clock = Clock.systemUTC();
    private final ScheduledExecutorService stateThread = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "replay-state");
        thread.setDaemon(true);
        return thread;
    });
    private final CountDownLatch done = new CountDownLatch(1);
    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    // State-thread only from here on.
    private final Map<WorkloadKey, TrackedWorkload> workloads = new HashMap<>();
    private final UsageIntegral usage = new UsageIntegral();
    private AdmissionController controller;
    private boolean schedulingQueued;
    private int finishedCount;
    private long firstCreationMillis = -1;
    private long lastFinishMillis;
    private long preemptions;
    private long cycles;
    private final PreemptionLosses losses;

    public KueuePerfReplay(PerfScenario scenario) {
        this.scenario = scenario;
        this.losses = new PreemptionLosses(scenario);
    }

    public static void main(String[] args) throws Exception {
        PerfScenario scenario = PerfScenario.named(args.length > 0 ? args[0] : "baseline");
        if (java.util.Arrays.asList(args).contains("--through-api")) {
            System.exit(ApiPerfReplay.main(scenario, java.util.Arrays.copyOfRange(args, 1, args.length)));
        }
        System.out.printf("Replaying %s: %d workloads, lower bound %.1f s ...%n",
                scenario.name(), scenario.workloadCount(), scenario.lowerBoundMillis() / 1000.0);
        KueuePerfReplay replay = new KueuePerfReplay(scenario);
        ReplayResult result = replay.run();
        System.out.print(result.render());
        System.out.print(replay.losses.line()); // read after run(), whose last state-thread task it waited for
        System.exit(result.meetsTarget() ? 0 : 1);
    }

    public ReplayResult run() throws Exception {
        try {
            stateThread.submit(() -> {
                controller = new AdmissionController(clock, SchedulerOptions.DEFAULTS, this);
                scenario.topology().install(controller);
            }).get();
            scheduleCreations();
            long timeoutMillis = START_DELAY_MILLIS + 20 * scenario.lowerBoundMillis() + 60_000;
            if (!done.await(timeoutMillis, TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("replay did not finish within " + timeoutMillis + " ms; finished "
                        + stateThread.submit(() -> finishedCount).get() + " of " + scenario.workloadCount());
            }
            if (failure.get() != null) throw new IllegalStateException("replay failed", failure.get());
            return stateThread.submit(this::result).get();
        } finally {
            stateThread.shutdownNow();
        }
    }

    /** Schedules every creation against one time base, so scheduling 50,000 tasks does not shift them. */
    private void scheduleCreations() {
        long base = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(START_DELAY_MILLIS);
        for (int queue = 0; queue < scenario.topology().queueCount(); queue++) {
            for (WorkloadClass workloadClass : scenario.classes()) {
                for (int index = 0; index < workloadClass.countPerQueue(); index++) {
                    WorkloadKey key = WorkloadKey.of(scenario.topology().namespace(queue), workloadClass.name() + "-" + index);
                    long dueNanos = base + TimeUnit.MILLISECONDS.toNanos(index * workloadClass.intervalMillis());
                    stateThread.schedule(guarded(() -> create(key, workloadClass)),
                            dueNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
                }
            }
        }
    }

    private void create(WorkloadKey key, WorkloadClass workloadClass) {
        long now = clock.millis();
        if (firstCreationMillis < 0) {
            firstCreationMillis = now;
            usage.change(now, 0);
        }
        workloads.put(key, new TrackedWorkload(key, workloadClass, now));
        controller.submit(CpuWorkload.request(key, workloadClass.priority(), now, workloadClass.cpuMillis()),
                true, WorkloadStatus.EMPTY);
        requestScheduling();
    }

    private void finish(TrackedWorkload workload) {
        long now = clock.millis();
        workload.finished = true;
        workload.finishTask = null;
        usage.change(now, -workload.workloadClass.cpuMillis());
        controller.finish(workload.key, true, Conditions.Reasons.SUCCEEDED, "Job finished successfully");
        lastFinishMillis = now;
        finishedCount++;
        if (finishedCount == scenario.workloadCount()) {
            done.countDown();
            return;
        }
        requestScheduling();
    }

    private void requestScheduling() {
        requestScheduling(BATCH_MILLIS);
    }

    private void requestScheduling(long delayMillis) {
        if (schedulingQueued) return;
        schedulingQueued = true;
        if (delayMillis == 0) {
            stateThread.execute(guarded(this::schedulingPass));
        } else {
            stateThread.schedule(guarded(this::schedulingPass), delayMillis, TimeUnit.MILLISECONDS);
        }
    }

    /** One slice of a pass, as the manager runs it; the next slice queues behind the events that arrived meanwhile. */
    private void schedulingPass() {
        schedulingQueued = false;
        CycleReport report = controller.scheduleSlice();
        cycles += report.cycles();
        preemptions += report.preempted();
        if (controller.hasMoreToSchedule()) requestScheduling(0);
    }

    @Override
    public void workloadChanged(WorkloadKey key, boolean active, WorkloadStatus status) {
        TrackedWorkload workload = workloads.get(key);
        if (workload == null || workload.finished) return;
        boolean admitted = status.isTrue(Conditions.ADMITTED);
        long now = clock.millis();
        if (admitted && !workload.running()) {
            if (workload.firstAdmittedAtMillis < 0) workload.firstAdmittedAtMillis = now;
            workload.runStartMillis = now;
            usage.change(now, workload.workloadClass.cpuMillis());
            workload.finishTask = stateThread.schedule(guarded(() -> finish(workload)),
                    workload.workloadClass.runtimeMillis(), TimeUnit.MILLISECONDS);
        } else if (!admitted && workload.running()) {
            // Evicted (preempted): the job stops and runs again from the start when re-admitted.
            workload.finishTask.cancel(false);
            workload.finishTask = null;
            usage.change(now, -workload.workloadClass.cpuMillis());
            losses.preempted(workload.workloadClass, now - workload.runStartMillis);
        }
    }


    private ReplayResult result() {
        Map<String, long[]> latencies = new LinkedHashMap<>();
        Map<String, Integer> filled = new HashMap<>();
        for (WorkloadClass workloadClass : scenario.classes()) {
            latencies.put(workloadClass.name(), new long[workloadClass.countPerQueue() * scenario.topology().queueCount()]);
            filled.put(workloadClass.name(), 0);
        }
        for (TrackedWorkload workload : workloads.values()) {
            String name = workload.workloadClass.name();
            int at = filled.merge(name, 1, Integer::sum) - 1;
            latencies.get(name)[at] = workload.firstAdmittedAtMillis - workload.createdAtMillis;
        }
        double meanUsage = usage.meanFraction(firstCreationMillis, lastFinishMillis, scenario.topology().totalNominalCpuMillis());
        return new ReplayResult(scenario, lastFinishMillis - firstCreationMillis, latencies, meanUsage, preemptions, cycles);
    }

    /** Runs a task on the state thread; the first failure ends the replay instead of vanishing in the executor. */
    private Runnable guarded(Runnable task) {
        return () -> {
            try {
                task.run();
            } catch (Throwable error) {
                failure.compareAndSet(null, error);
                done.countDown();
            }
        };
    }
}
