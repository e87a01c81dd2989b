package dev.berth.system;

import dev.berth.agent.Agent;
import dev.berth.agent.AgentConfig;
import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.security.SecurityOptions;
import dev.berth.manager.controller.BerthManager;
import dev.berth.manager.controller.DispatchOptions;
import dev.berth.manager.controller.JobIntegrationSettings;
import dev.berth.manager.store.ObjectStore;
import dev.berth.virtualcluster.ClientIdentity;
import dev.berth.virtualcluster.VirtualClusterProcess;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.vertx5.Vertx5HttpClientFactory;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Berth on one machine: virtual GPU clusters, each in its own process with an agent, and a manager
 * that knows them as MultiKueueClusters through kubeconfig Secrets, exactly as an operator would
 * register real clusters.
 */
public final class BerthSystem implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(BerthSystem.class);

    private final Vertx vertx;
    private final List<RunningWorker> workers;
    private final BerthManager manager;
    private final Path dir;

    private final String scheme;

    private BerthSystem(Vertx vertx, List<RunningWorker> workers, BerthManager manager, Path dir, String scheme) {
        this.scheme = scheme;
        this.vertx = vertx;
        this.workers = workers;
        this.manager = manager;
        this.dir = dir;
    }

    /**
     * Starts the clusters (in parallel), their agents, and the manager on host:port with the given
     * store; then loads the manifests of {@code queueManifests} (may be null) and registers every
     * cluster with the manager.
     */
    public static BerthSystem start(Path dir, List<WorkerClusterSpec> clusters, ObjectStore store, SchedulerOptions options,
                                    String host, int port, List<Path> queueManifests) throws IOException {
        return start(dir, clusters, store, options, DispatchOptions.DEFAULTS, host, port, queueManifests);
    }

    /** As above, with dispatch and failover options (workerLostTimeout, lease, health tolerances, resilience). */
    public static BerthSystem start(Path dir, List<WorkerClusterSpec> clusters, ObjectStore store, SchedulerOptions options,
                                    DispatchOptions dispatch, String host, int port, List<Path> queueManifests) throws IOException {
        return start(dir, clusters, store, options, dispatch, host, port, queueManifests, null);
    }

    /** As above, with the manager's API secured (authentication, RBAC, TLS) when securityOrNull is given. */
    public static BerthSystem start(Path dir, List<WorkerClusterSpec> clusters, ObjectStore store, SchedulerOptions options,
                                    DispatchOptions dispatch, String host, int port, List<Path> queueManifests,
                                    SecurityOptions securityOrNull) throws IOException {
        return start(dir, clusters, store, options, dispatch, host, port, queueManifests, securityOrNull,
                dev.berth.manager.objects.IntegrationFrameworks.ALL_SERVED);
    }

    /** As above, managing only the job kinds of {@code frameworks} (Kueue's integrations.frameworks). */
    public static BerthSystem start(Path dir, List<WorkerClusterSpec> clusters, ObjectStore store, SchedulerOptions options,
                                    DispatchOptions dispatch, String host, int port, List<Path> queueManifests,
                                    SecurityOptions securityOrNull, dev.berth.manager.objects.IntegrationFrameworks frameworks)
            throws IOException {
        Files.createDirectories(dir);
        Vertx vertx = Vertx.vertx();
        List<CompletableFuture<VirtualClusterProcess>> starting = new ArrayList<>();
        for (WorkerClusterSpec spec : clusters) {
            starting.add(CompletableFuture.supplyAsync(() -> VirtualClusterProcess.start(spec.name(), spec.profile(),
                    dir.resolve("clusters").resolve(spec.name()), spec.spot())));
        }
        List<RunningWorker> workers = new ArrayList<>();
        for (int i = 0; i < clusters.size(); i++) {
            VirtualClusterProcess process = starting.get(i).join();
            workers.add(startAgent(vertx, clusters.get(i), process, client(vertx, process.kubeconfig())));
            log.atInfo().addKeyValue("cluster", clusters.get(i).name()).addKeyValue("port", process.port())
                    .addKeyValue("agentPort", workers.get(i).agentPort()).log("worker cluster started");
        }
        BerthManager manager = new BerthManager(store, Clock.systemUTC(), options, dispatch, JobIntegrationSettings.DEFAULTS, frameworks);
        if (securityOrNull != null) manager.secure(securityOrNull);
        manager.start(vertx, host, port).await();
        boolean tls = securityOrNull != null && securityOrNull.tls().isPresent();
        BerthSystem system = new BerthSystem(vertx, workers, manager, dir, tls ? "https" : "http");
        for (Path manifests : queueManifests) manager.loadManifests(manifests);
        system.registerClusters();
        return system;
    }

    /**
     * Starts an agent with the agent's own kubeconfig (so the cluster records its requests as the agent's);
     * {@code adminClient} is the tests' and operator's client of that cluster.
     */
    private static RunningWorker startAgent(Vertx vertx, WorkerClusterSpec spec, VirtualClusterProcess process, KubernetesClient adminClient) {
        Path kubeconfig = process.kubeconfig(ClientIdentity.AGENT);
        AgentConfig config = new AgentConfig(spec.name(), Optional.of(kubeconfig), "127.0.0.1", 0,
                Duration.ofSeconds(1), Duration.ofMillis(300), Optional.empty());
        KubernetesClient agentClient = client(vertx, kubeconfig);
        Agent agent = new Agent(vertx, agentClient, config, Clock.systemUTC());
        int agentPort = await(agent.start().toCompletionStage().toCompletableFuture());
        return new RunningWorker(spec, process, adminClient, agent, agentClient, agentPort);
    }

    private static KubernetesClient client(Vertx vertx, Path kubeconfig) {
        return new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(kubeconfig.toFile()))
                .withHttpClientFactory(new Vertx5HttpClientFactory(vertx)).build();
    }

    /** Stops a cluster's agent (its pods keep running): the agent is lost to the manager until {@link #restartAgent}. */
    public void stopAgent(String name) {
        await(worker(name).agent().stop().toCompletionStage().toCompletableFuture());
    }

    /** Starts a fresh agent for a cluster whose agent was stopped. */
    public void restartAgent(String name) {
        RunningWorker old = worker(name);
        old.agentClient().close();
        workers.set(workers.indexOf(old), startAgent(vertx, old.spec(), old.cluster(), old.client()));
    }

    private static <T> T await(CompletableFuture<T> future) {
        try {
            return future.get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("a component did not start", e);
        }
    }

    /** Writes a kubeconfig Secret (the manager's own identity in that cluster) and a MultiKueueCluster per worker, and loads them into the manager. */
    private void registerClusters() throws IOException {
        Path registrations = dir.resolve("multikueue-clusters");
        Files.createDirectories(registrations);
        for (RunningWorker worker : workers) {
            String kubeconfig = Base64.getEncoder().encodeToString(Files.readAllBytes(worker.cluster().kubeconfig(ClientIdentity.MANAGER)));
            String yaml = """
                    apiVersion: v1
                    kind: Secret
                    metadata:
                      name: %1$s-kubeconfig
                      namespace: kueue-system
                    data:
                      kubeconfig: %2$s
                    ---
                    apiVersion: kueue.x-k8s.io/v1beta2
                    kind: MultiKueueCluster
                    metadata:
                      name: %1$s
                    spec:
                      clusterSource:
                        kubeConfig:
                          locationType: Secret
                          location: %1$s-kubeconfig
                    """.formatted(worker.name(), kubeconfig);
            Files.writeString(registrations.resolve(worker.name() + ".yaml"), yaml);
        }
        manager.loadManifests(registrations);
    }

    public BerthManager manager() {
        return manager;
    }

    public List<RunningWorker> workers() {
        return workers;
    }

    public RunningWorker worker(String name) {
        return workers.stream().filter(w -> w.name().equals(name)).findFirst().orElseThrow();
    }

    public String apiUrl() {
        return scheme + "://127.0.0.1:" + manager.port();
    }

    /**
     * Stops everything in under a few seconds: the manager and the agents first and in parallel (they are
     * the ones calling the clusters), each agent's pass in flight getting {@link #AGENT_GRACE}; then the
     * clients; then the clusters, all told to stop at once; then the shared Vert.x. Every wait is bounded.
     */
    @Override
    public void close() {
        long deadline = System.nanoTime() + STOP_BOUND.toNanos();
        CompletableFuture<Void> managerClosed = onOwnThread("berth-manager-close", manager::close);
        List<CompletableFuture<Void>> agentsStopped = new ArrayList<>();
        for (RunningWorker worker : workers) {
            agentsStopped.add(worker.agent().stop(AGENT_GRACE).toCompletionStage().toCompletableFuture());
        }
        for (int i = 0; i < workers.size(); i++) {
            if (!awaitUntil(agentsStopped.get(i), deadline)) {
                log.atWarn().addKeyValue("cluster", workers.get(i).name()).log("agent did not stop cleanly in time");
            }
        }
        if (!awaitUntil(managerClosed, deadline)) log.atWarn().log("manager did not close in time");
        List<CompletableFuture<Void>> clustersStopped = new ArrayList<>();
        for (RunningWorker worker : workers) {
            worker.agentClient().close();
            worker.client().close();
            clustersStopped.add(onOwnThread("berth-cluster-stop-" + worker.name(), worker.cluster()::stop));
        }
        for (int i = 0; i < workers.size(); i++) {
            if (!awaitUntil(clustersStopped.get(i), deadline)) {
                log.atWarn().addKeyValue("cluster", workers.get(i).name()).log("virtual cluster did not stop in time; killed");
                workers.get(i).cluster().kill();
            }
        }
        awaitUntil(vertx.close().toCompletionStage().toCompletableFuture(), deadline + VERTX_CLOSE.toNanos());
    }

    /** What {@link #close()} waits in all for the manager, agents and clusters. */
    private static final Duration STOP_BOUND = Duration.ofSeconds(3);
    private static final Duration AGENT_GRACE = Duration.ofMillis(500);
    private static final Duration VERTX_CLOSE = Duration.ofSeconds(1);

    private static CompletableFuture<Void> onOwnThread(String name, Runnable task) {
        return CompletableFuture.runAsync(task, runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            thread.start();
        });
    }

    /** Waits for {@code future} until {@code deadline} (System.nanoTime); false when it failed or is still running. */
    private static boolean awaitUntil(CompletableFuture<?> future, long deadline) {
        try {
            future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (Exception e) {
            log.atWarn().setCause(e).log("stopping a component failed");
            return false;
        }
    }
}
