package dev.berth.chaos;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.virtualcluster.PodInterval;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.Network;

/**
 * Berth in containers for one drill: a Docker network for the managers and the sites' uplinks, the
 * worker sites (each with its own network), the manager replicas (each store on a named volume), and
 * the queues and MultiKueueClusters registered through the API. Remembers every submission the API
 * acknowledged. {@link #close()} saves every container's log under target/drill-logs/<drill>/ (<drill>-2, ... when an
 * earlier environment of the same name saved there) and
 * removes the containers, networks and volumes it made.
 */
public final class DrillEnvironment implements AutoCloseable {
    static final Duration PATIENCE = Duration.ofSeconds(120);

    private final String drill;
    private final DrillSetup setup;
    private final String runId = UUID.randomUUID().toString().substring(0, 8);
    private final Network network = Network.newNetwork();
    private final List<WorkerSite> sites = new ArrayList<>();
    private final List<ManagerReplica> live = new ArrayList<>();
    private final List<ManagerReplica> gone = new ArrayList<>();
    private final List<String> acknowledged = Collections.synchronizedList(new ArrayList<>());
    private ChaosPostgres postgres;

    private DrillEnvironment(String drill, DrillSetup setup) {
        this.drill = drill;
        this.setup = setup;
    }

    /** Starts everything, registers queues and clusters, and waits until every cluster is Active. */
    public static DrillEnvironment start(String drill, DrillSetup setup) {
        DockerRequirement.require();
        DrillEnvironment env = new DrillEnvironment(drill, setup);
        long started = System.nanoTime();
        try {
            // Images first (built once per content), then every component at once: the sites and the replicas.
            for (ChaosImages.Component component : ChaosImages.Component.values()) ChaosImages.image(component);
            List<CompletableFuture<WorkerSite>> starting = setup.sites().stream()
                    .map(site -> CompletableFuture.supplyAsync(() -> WorkerSite.start(site.name(), site.profile(), env.network)))
                    .toList();
            if (setup.replicas() > 1 && System.getProperty("chaos.pgUrl", "").isBlank()) {
                env.postgres = ChaosPostgres.start(env.network);
                say(drill, "PostgreSQL up after " + seconds(started) + " s");
            }
            List<CompletableFuture<ManagerReplica>> replicas = new ArrayList<>();
            for (int i = 0; i < setup.replicas(); i++) {
                int index = i;
                replicas.add(CompletableFuture.supplyAsync(() -> env.startReplica(index)));
            }
            RuntimeException failed = collect(replicas, env.live::add);
            RuntimeException siteFailed = collect(starting, env.sites::add);
            if (failed != null || siteFailed != null) throw failed != null ? failed : siteFailed;
            say(drill, "containers up after " + seconds(started) + " s");
            if (setup.replicas() > 1) {
                // replicas campaign only once their cluster join settled; writes before that answer 503
                await().atMost(PATIENCE).pollInterval(Duration.ofMillis(500)).until(() -> Leadership.leader(env) != null);
                say(drill, "leader " + Leadership.leader(env).alias() + " elected after " + seconds(started) + " s");
            }
            ChaosQueues.apply(env.api(), env.sites);
            env.awaitClustersActive();
            say(drill, "every cluster Active after " + seconds(started) + " s");
            return env;
        } catch (RuntimeException | Error e) {
            env.close();
            throw e;
        }
    }

    /** Hands every component that started to {@code started} (so close() removes it); returns the first failure. */
    private static <T> RuntimeException collect(List<CompletableFuture<T>> futures, java.util.function.Consumer<T> started) {
        RuntimeException failure = null;
        for (CompletableFuture<T> future : futures) {
            try {
                started.accept(future.join());
            } catch (java.util.concurrent.CompletionException e) {
                if (failure == null) failure = e.getCause() instanceof RuntimeException r ? r : e;
            }
        }
        return failure;
    }

    /** Progress on the drill's output, with the time of day. */
    static void say(String drill, String message) {
        System.out.printf("%s chaos %s: %s%n", java.time.LocalTime.now().withNano(0), drill, message);
    }

    public void say(String message) {
        say(drill, message);
    }

    private static String seconds(long startedNanos) {
        return String.format("%.1f", (System.nanoTime() - startedNanos) / 1e9);
    }

    private ManagerReplica startReplica(int index) {
        List<String> flags = new ArrayList<>(setup.managerFlags());
        if (setup.replicas() > 1) {
            flags.addAll(postgres == null ? ManagerFlags.replica(index, setup.replicas())
                    : ManagerFlags.replica(index, setup.replicas(), ChaosPostgres.JDBC_URL));
        }
        return ManagerReplica.start(network, ManagerFlags.alias(index), "berth-chaos-" + runId + "-manager-" + index, flags);
    }

    /** The API of a live replica: the first that answers /readyz. */
    public ManagerApi api() {
        for (ManagerReplica replica : List.copyOf(live)) {
            ManagerApi api = replica.api();
            if (api.isReady()) return api;
        }
        throw new IllegalStateException("no manager replica is ready");
    }

    public List<ManagerReplica> replicas() {
        return List.copyOf(live);
    }

    public List<WorkerSite> sites() {
        return List.copyOf(sites);
    }

    /**
     * Starts one more worker site mid-drill and registers it as a MultiKueueCluster (its kubeconfig in a
     * Secret), as an operator adds a cluster; it is stopped, and its logs saved, with the others.
     */
    public WorkerSite addSite(String name, String profile) {
        WorkerSite site = WorkerSite.start(name, profile, network);
        sites.add(site);
        ChaosQueues.register(api(), site);
        return site;
    }

    public WorkerSite site(String name) {
        return sites.stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    public Network managerNetwork() {
        return network;
    }

    public void awaitClustersActive() {
        await().atMost(PATIENCE).pollInterval(Duration.ofMillis(500)).until(() -> sites.stream().allMatch(s -> clusterActive(s.name())));
    }

    public boolean clusterActive(String cluster) {
        return "True".equals(ManagerApi.condition(api().multiKueueCluster(cluster), "Active"));
    }

    /**
     * Submits a Job to any live replica and remembers it when acknowledged (201). When the connection
     * breaks it tries the next replica; 409 there means the first attempt was stored, so it counts too.
     */
    public boolean submit(String job, int gpus, String runtime) {
        return submitYaml(job, ChaosQueues.job(job, gpus, runtime));
    }

    /** {@link #submit} of a Job given as YAML (named {@code job}, in the drills' namespace). */
    public boolean submitYaml(String job, String yaml) {
        return submitTo(Invariants.BATCH_JOBS, job, yaml);
    }

    /** {@link #submitYaml} of any job kind, posted to its collection in the drills' namespace. */
    public boolean submitTo(Invariants.JobKind kind, String job, String yaml) {
        String path = kind.collection(ChaosQueues.NAMESPACE);
        boolean triedBefore = false;
        for (ManagerReplica replica : List.copyOf(live)) {
            Optional<HttpResponse<String>> answer = replica.api().trySend("POST", path, "application/yaml", yaml);
            if (answer.isEmpty()) {
                triedBefore = true;
                continue;
            }
            int status = answer.get().statusCode();
            if (status == 201 || (status == 409 && triedBefore)) {
                acknowledged.add(job);
                return true;
            }
            return false;
        }
        return false;
    }

    public List<String> acknowledged() {
        return List.copyOf(acknowledged);
    }

    /** The Workload of an acknowledged job, or null. */
    public JsonNode workloadOf(String job) {
        return api().workloads(ChaosQueues.NAMESPACE).stream().filter(w -> job.equals(ManagerApi.ownerJob(w))).findFirst().orElse(null);
    }

    public static String clusterOf(JsonNode workload) {
        return workload == null ? "" : workload.path("status").path("clusterName").asText("");
    }

    public static boolean isRunning(JsonNode workload) {
        return workload != null && "Running".equals(workload.path("status").path("dispatch").path("phase").asText());
    }

    public static boolean isFinished(JsonNode workload) {
        return "True".equals(ManagerApi.condition(workload, "Finished"));
    }

    /** Waits until every acknowledged workload has finished. */
    public void awaitAllFinished(Duration atMost) {
        await().atMost(atMost).pollInterval(Duration.ofSeconds(1)).until(() -> {
            List<JsonNode> workloads = api().workloads(ChaosQueues.NAMESPACE);
            return acknowledged().stream().allMatch(job -> workloads.stream()
                    .anyMatch(w -> job.equals(ManagerApi.ownerJob(w)) && isFinished(w)));
        });
    }

    /** Kills a replica's container (a crash); its volume stays. */
    public void killManager(ManagerReplica replica) {
        Faults.kill(replica.container());
        live.remove(replica);
        gone.add(replica);
    }

    /** Starts a killed replica again, a new container on its alias and volume (a crashed pod restarted); returns once it answers /readyz. */
    public ManagerReplica startManagerAgain(ManagerReplica killed) {
        int index = Integer.parseInt(killed.alias().substring(killed.alias().lastIndexOf('-') + 1));
        ManagerReplica started = startReplica(index);
        live.add(started);
        return started;
    }

    /**
     * Starts every replica again on its own volume, all at once (as a StatefulSet with parallel pod
     * management restarts them), as after a full restart; returns once each answers /readyz.
     */
    public void startManagersAgain() {
        List<CompletableFuture<ManagerReplica>> starting = new ArrayList<>();
        for (int i = 0; i < setup.replicas(); i++) {
            int index = i;
            starting.add(CompletableFuture.supplyAsync(() -> startReplica(index)));
        }
        RuntimeException failed = collect(starting, live::add);
        if (failed != null) throw failed;
    }

    /** Every pod interval every site's cluster recorded. */
    public List<PodInterval> podLifetimes() {
        List<PodInterval> all = new ArrayList<>();
        sites.forEach(site -> all.addAll(site.podLifetimes()));
        return all;
    }

    /** Checks the four invariants over every acknowledged workload. */
    public DrillVerdict verdict() {
        return Invariants.check(api(), ChaosQueues.NAMESPACE, acknowledged(), podLifetimes());
    }

    /**
     * The four invariants over the acknowledged jobs whose names start with {@code jobPrefix} and the
     * pods of their workloads only: the verdict of one drill on an environment that drills share.
     */
    public DrillVerdict verdict(String jobPrefix) {
        return verdict(jobPrefix, Invariants.BATCH_JOBS);
    }

    /** {@link #verdict(String)} for jobs of another kind (a PyTorchJob's drill). */
    public DrillVerdict verdict(String jobPrefix, Invariants.JobKind kind) {
        List<String> jobs = acknowledged().stream().filter(job -> job.startsWith(jobPrefix)).toList();
        List<JsonNode> workloads = api().workloads(ChaosQueues.NAMESPACE);
        java.util.Set<String> names = workloads.stream().filter(w -> jobs.contains(ManagerApi.ownerJob(w)))
                .map(w -> w.path("metadata").path("name").asText()).collect(java.util.stream.Collectors.toSet());
        List<PodInterval> pods = podLifetimes().stream().filter(p -> names.contains(p.workload())).toList();
        return Invariants.check(api(), ChaosQueues.NAMESPACE, kind, jobs, pods);
    }

    /**
     * {@code <base>/<name>}, or {@code <name>-2}, {@code -3}... when taken: an environment discarded after a failed drill
     * and the next one of the same name keep their logs apart.
     */
    private static Path unusedDirectory(Path base, String name) {
        Path candidate = base.resolve(name);
        for (int n = 2; java.nio.file.Files.exists(candidate); n++) candidate = base.resolve(name + "-" + n);
        return candidate;
    }

    @Override
    public void close() {
        Path logs = unusedDirectory(DrillReport.directory().resolveSibling("drill-logs"), drill);
        for (int i = 0; i < gone.size(); i++) gone.get(i).saveLogs(logs, gone.get(i).alias() + "-killed-" + i);
        for (ManagerReplica replica : live) replica.saveLogs(logs, replica.alias());
        for (WorkerSite site : sites) site.saveLogs(logs);
        gone.forEach(ManagerReplica::remove);
        live.forEach(ManagerReplica::remove);
        sites.forEach(WorkerSite::stop);
        if (postgres != null) {
            postgres.saveLogs(logs);
            postgres.stop();
        }
        try {
            network.close();
        } catch (RuntimeException e) {
            System.err.println("chaos: could not remove network: " + e);
        }
        for (int i = 0; i < setup.replicas(); i++) {
            try {
                DockerClientFactory.instance().client().removeVolumeCmd("berth-chaos-" + runId + "-manager-" + i).exec();
            } catch (RuntimeException e) {
                System.err.println("chaos: could not remove volume: " + e);
            }
        }
    }
}
