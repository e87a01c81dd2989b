package dev.berth.virtualcluster;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes a mock API server behave like a small GPU cluster: every period, on one thread, the Job,
 * JobSet, PyTorchJob and MPIJob controllers, the garbage collector, the scheduler and the kubelet each list what they need
 * and reconcile it. Periodic reconciliation over lists is simple and survives missed events.
 */
public final class ClusterSimulator implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterSimulator.class);
    public static final String POD_LIFETIMES_FILE = "pod-lifetimes.jsonl";

    private record Step(String name, Runnable action) {}

    private final ScheduledExecutorService executor;
    private final PodLifetimeRecorder recorder;
    private final List<Step> steps;
    private final Duration period;

    public ClusterSimulator(KubernetesClient client, String clusterName, Path dir, Duration period, Clock clock) {
        this(client, clusterName, dir, period, clock, null);
    }

    /** With a simulated provisioner when {@code provisioner} is not null (an autoscaling virtual cluster). */
    ClusterSimulator(KubernetesClient client, String clusterName, Path dir, Duration period, Clock clock, SimulatedProvisioner provisioner) {
        this.period = period;
        this.recorder = new PodLifetimeRecorder(dir.resolve(POD_LIFETIMES_FILE));
        JobSetController jobSets = new JobSetController(client, clock);
        JobController jobs = new JobController(client, clock);
        KubeflowJobController pyTorchJobs = new KubeflowJobController(client, clock, dev.berth.protocol.KubeflowJobKind.PYTORCH_JOB);
        KubeflowJobController mpiJobs = new KubeflowJobController(client, clock, dev.berth.protocol.KubeflowJobKind.MPI_JOB);
        RayJobController rayJobs = new RayJobController(client, clock);
        RayClusterController rayClusters = new RayClusterController(client, clock);
        TrainJobController trainJobs = new TrainJobController(client);
        ServingController deployments = new ServingController(client, dev.berth.protocol.ServingKind.DEPLOYMENT);
        ServingController statefulSets = new ServingController(client, dev.berth.protocol.ServingKind.STATEFUL_SET);
        ServingController leaderWorkerSets = new ServingController(client, dev.berth.protocol.ServingKind.LEADER_WORKER_SET);
        AppWrapperController appWrappers = new AppWrapperController(client, clock);
        OwnerGarbageCollector garbageCollector = new OwnerGarbageCollector(client);
        PodScheduler scheduler = new PodScheduler(client, clock);
        Kubelet kubelet = new Kubelet(client, clock, clusterName, recorder);
        List<Step> steps = new java.util.ArrayList<>(List.of(
            new Step("trainjob controller", trainJobs::reconcile),
            new Step("appwrapper controller", appWrappers::reconcile),
            new Step("jobset controller", jobSets::reconcile),
            new Step("job controller", jobs::reconcile),
            new Step("pytorchjob controller", pyTorchJobs::reconcile),
            new Step("mpijob controller", mpiJobs::reconcile),
            new Step("rayjob controller", rayJobs::reconcile),
            new Step("raycluster controller", rayClusters::reconcile),
            new Step("deployment controller", deployments::reconcile),
            new Step("statefulset controller", statefulSets::reconcile),
            new Step("leaderworkerset controller", leaderWorkerSets::reconcile),
            new Step("garbage collector", garbageCollector::reconcile),
            new Step("scheduler", scheduler::reconcile),
            new Step("kubelet", kubelet::reconcile)));
        if (provisioner != null) steps.add(0, new Step("provisioner", provisioner::reconcile));
        this.steps = List.copyOf(steps);
        this.executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "simulator-" + clusterName);
            thread.setDaemon(true);
            return thread;
        });
    }

    public void start() {
        executor.scheduleWithFixedDelay(this::reconcileOnce, 0, period.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** One pass of every step; a failing step is logged and the others still run. */
    void reconcileOnce() {
        for (Step step : steps) {
            try {
                step.action().run();
            } catch (RuntimeException e) {
                LOG.warn("Simulator step '{}' failed: {}", step.name(), e.toString());
            }
        }
    }

    @Override
    public void close() {
        executor.shutdown();
        try {
            executor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        recorder.close();
    }
}
