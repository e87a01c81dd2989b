package dev.berth.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.manager.api.ObjectCountLimits;
import dev.berth.manager.config.KueueConfigurationFile;
import dev.berth.manager.config.ManagerSettings;
import dev.berth.manager.security.QuickstartCredentials;
import dev.berth.manager.store.FileObjectStore;
import dev.berth.system.BerthSystem;
import dev.berth.system.Quickstart;
import dev.berth.system.RunningWorker;
import dev.berth.virtualcluster.ClientIdentity;
import dev.berth.virtualcluster.VirtualClusterProcess;
import io.fabric8.kubernetes.client.Config;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Issue 16 target 2: Job creates per second that the quickstart manager accepts (201, durable in its
 * embedded file store), over HTTPS with the admin token and {@code --clients} concurrent clients, against
 * the same client creating the same Jobs on a bare virtual cluster's API in the same run. Rounds
 * alternate the two paths (bare first) so load on a shared machine hits both alike; the report gives
 * each round and the medians, and the ratio Berth / bare per round and of the medians.
 *
 * <p>Options: {@code --creates 1000 --clients 16 --rounds 3 --warmup 200 --runtime PT1S}. Run from the
 * repository root (the quickstart's example queues, MultiKueue setup and RBAC are loaded from {@code examples/}).
 */
public final class ApiThroughputBenchmark {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ApiThroughputBenchmark() {}

    public static void main(String[] args) throws Exception {
        int creates = 1000;
        int clients = 16;
        int rounds = 3;
        int warmup = 200;
        String runtime = "PT1S";
        boolean bareOnWorker = false;
        boolean held = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--creates" -> creates = Integer.parseInt(args[++i]);
                case "--clients" -> clients = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                case "--runtime" -> runtime = args[++i];
                case "--bare" -> bareOnWorker = args[++i].equals("worker");
                case "--dispatch" -> held = args[++i].equals("held");
                default -> {
                    System.err.println("usage: ApiThroughputBenchmark [--creates 1000] [--clients 16] [--rounds 3] [--warmup 200] [--runtime PT1S] [--bare separate|worker] [--dispatch running|held]");
                    System.exit(2);
                }
            }
        }
        System.out.println("load average before start: " + CpuSampler.loadAverage() + " (" + Runtime.getRuntime().availableProcessors()
                + " cores, " + System.getProperty("java.vm.name") + " " + Runtime.version() + ")");
        Path home = Files.createTempDirectory("berth-api-throughput");
        Path data = Files.createDirectories(home.resolve("data"));
        List<Path> manifests = new ArrayList<>();
        for (String folder : List.of("examples/queues", "examples/multikueue", "examples/rbac")) {
            if (Files.isDirectory(Path.of(folder))) manifests.add(Path.of(folder));
        }
        if (manifests.isEmpty()) {
            System.err.println("run from the repository root: examples/queues not found");
            System.exit(2);
        }
        ManagerSettings settings = KueueConfigurationFile.settings(null, ManagerSettings.Flags.NONE);
        QuickstartCredentials credentials = QuickstartCredentials.prepare(home.resolve("security"), Clock.systemUTC());
        long starting = System.nanoTime();
        BerthSystem system = BerthSystem.start(home.resolve("quickstart"), Quickstart.CLUSTERS, FileObjectStore.open(data, Clock.systemUTC()),
                settings.scheduler(), settings.dispatch(), "127.0.0.1", 0, manifests,
                credentials.options().withAdminRate(ApiBench.UNLIMITED), settings.integrations());
        System.out.printf(Locale.ROOT, "quickstart started in %.1f s (file store in %s); load %s%n",
                (System.nanoTime() - starting) / 1e9, data, CpuSampler.loadAverage());
        // the admin's rate limit (500/s, bursts of 1,000 by default) is lifted as in ApiBench: its 429s are not creates
        // every round's Jobs (and their Workloads) stay in team-a: the default per-namespace limit (1,000 Jobs)
        // would refuse every create after the first thousand, so the run raises it to what it will create
        int total = warmup + rounds * creates + 100;
        system.manager().objectCountLimits(ObjectCountLimits.parse("jobs.batch=" + total + ",workloads.kueue.x-k8s.io=" + total
                + ",pods=" + Math.max(5000, total)));
        System.out.println("object count limits raised to " + total + " Jobs and Workloads per namespace");
        int exit;
        // the bare API's own cluster by default: the quickstart's workers also run what Berth dispatches to them,
        // so their API slows down as the run goes on (276/s, then 68/s in the run of 2026-12-02 05:25)
        VirtualClusterProcess separate = bareOnWorker ? null
                : VirtualClusterProcess.startApiOnly("bare-a100", Quickstart.CLUSTERS.get(0).profile(), home.resolve("bare"));
        try {
            CreateLoad berth = CreateLoad.https(system.apiUrl(), home.resolve("security").resolve("tls.crt"),
                    adminToken(home.resolve("security").resolve("tokens.csv")), clients);
            if (held) holdTeamA(berth);
            RunningWorker worker = system.workers().get(0);
            Path bareKubeconfig = separate == null ? worker.cluster().kubeconfig(ClientIdentity.ADMIN) : separate.kubeconfig(ClientIdentity.ADMIN);
            Config bareConfig = Config.fromKubeconfig(bareKubeconfig.toFile());
            CreateLoad bare = CreateLoad.plain(bareConfig.getMasterUrl(), bareConfig.getOauthToken(), clients);
            exit = run(berth, bare, creates, rounds, warmup, runtime, held,
                    separate == null ? worker.name() + ", a worker Berth dispatches to" : "bare-a100, a fourth cluster Berth does not use");
        } finally {
            if (separate != null) separate.close();
            system.close();
        }
        System.exit(exit);
    }

    private static int run(CreateLoad berth, CreateLoad bare, int creates, int rounds, int warmup, String runtime, boolean held, String bareName)
            throws Exception {
        if (warmup > 0) {
            CreateLoad.Result bareWarm = bare.run("warm", warmup, i -> BenchJobJson.bare("warm-" + i, "team-a", runtime));
            CreateLoad.Result berthWarm = berth.run("warm", warmup, i -> BenchJobJson.queued("warm-" + i, "team-a", "team-a-queue", runtime));
            if (bareWarm.refused() + berthWarm.refused() > 0) {
                System.out.println("ERROR: warm-up creates refused, bare " + bareWarm.failures() + ", Berth " + berthWarm.failures());
                return 3;
            }
            if (!held) System.out.printf(Locale.ROOT, "warm-up: every Workload Finished %.1f s after its last create%n", drain(berth));
        }
        List<CreateLoad.Result> bareResults = new ArrayList<>();
        List<CreateLoad.Result> berthResults = new ArrayList<>();
        // the whole machine's busy CPU time per create during each side's round: the same background (Berth's idle
        // workers and agents) runs under both, so the difference is what each API spends on a create, clients included
        double[] bareCpuMillis = new double[rounds];
        double[] berthCpuMillis = new double[rounds];
        // with dispatch running, each round's jobs run on the workers after the round: the next bare round waits until
        // they finished, so it is measured on the same quiet machine as the first (their run is not the API's cost)
        double[] drained = new double[rounds];
        for (int round = 0; round < rounds; round++) {
            String prefix = "r" + round + "-";
            CpuSampler bareCpu = new CpuSampler();
            bareResults.add(bare.run("bare", creates, i -> BenchJobJson.bare(prefix + i, "team-a", runtime)));
            bareCpuMillis[round] = bareCpu.busySeconds() * 1000 / creates;
            CpuSampler berthCpu = new CpuSampler();
            berthResults.add(berth.run("berth", creates, i -> BenchJobJson.queued(prefix + i, "team-a", "team-a-queue", runtime)));
            berthCpuMillis[round] = berthCpu.busySeconds() * 1000 / creates;
            if (!held) drained[round] = drain(berth);
            System.out.printf(Locale.ROOT, "round %d: bare %.1f/s, Berth %.1f/s (%.2fx)%s; load %s%s%n", round + 1,
                    bareResults.get(round).perSecond(), berthResults.get(round).perSecond(),
                    berthResults.get(round).perSecond() / bareResults.get(round).perSecond(),
                    held ? "" : String.format(Locale.ROOT, "; every Workload Finished %.1f s after the round's last create", drained[round]),
                    CpuSampler.loadAverage(),
                    bareResults.get(round).refused() + berthResults.get(round).refused() > 0
                            ? "; ERROR: refused creates, bare " + bareResults.get(round).failures() + ", Berth " + berthResults.get(round).failures() : "");
        }
        System.out.println();
        System.out.printf(Locale.ROOT, "Job creates, %d per round, %d clients, %d rounds (bare first in each), after %d warm-up creates each%n",
                creates, berth.clients(), rounds, warmup);
        System.out.println("| Round | Bare virtual cluster (" + bareName + ") | p50 | p99 | CPU per create | Berth quickstart manager | p50 | p99 | CPU per create | Berth / bare | non-201 |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|---|");
        double[] ratios = new double[rounds];
        for (int round = 0; round < rounds; round++) {
            CreateLoad.Result b = bareResults.get(round);
            CreateLoad.Result m = berthResults.get(round);
            ratios[round] = m.perSecond() / b.perSecond();
            System.out.printf(Locale.ROOT, "| %d | %.1f/s | %.0f ms | %.0f ms | %.2f ms | %.1f/s | %.0f ms | %.0f ms | %.2f ms | %.2fx | %s / %s |%n", round + 1,
                    b.perSecond(), b.latency().percentile(50), b.latency().percentile(99), bareCpuMillis[round],
                    m.perSecond(), m.latency().percentile(50), m.latency().percentile(99), berthCpuMillis[round], ratios[round], b.failures(), m.failures());
        }
        double bareMedian = median(bareResults.stream().mapToDouble(CreateLoad.Result::perSecond).toArray());
        double berthMedian = median(berthResults.stream().mapToDouble(CreateLoad.Result::perSecond).toArray());
        double ratioMedian = median(ratios);
        System.out.printf(Locale.ROOT, "| median | %.1f/s | %.0f ms | %.0f ms | %.2f ms | %.1f/s | %.0f ms | %.0f ms | %.2f ms | %.2fx | |%n",
                bareMedian, median(bareResults.stream().mapToDouble(r -> r.latency().percentile(50)).toArray()),
                median(bareResults.stream().mapToDouble(r -> r.latency().percentile(99)).toArray()), median(bareCpuMillis),
                berthMedian, median(berthResults.stream().mapToDouble(r -> r.latency().percentile(50)).toArray()),
                median(berthResults.stream().mapToDouble(r -> r.latency().percentile(99)).toArray()), median(berthCpuMillis), ratioMedian);
        int refused = 0;
        for (int round = 0; round < rounds; round++) {
            refused += bareResults.get(round).refused() + berthResults.get(round).refused();
        }
        if (refused > 0) {
            // a refused create is not throughput: the round measured something else (a limit, an outage)
            System.out.printf(Locale.ROOT, "ERROR: %d creates were not answered 201 (last column); this run measures nothing; load %s%n",
                    refused, CpuSampler.loadAverage());
            return 3;
        }
        boolean met = berthMedian >= 500 && ratioMedian >= 0.5;
        System.out.printf(Locale.ROOT, "target (>= 500/s and >= 0.5x the bare API): %s; load %s%n", met ? "met" : "MISSED", CpuSampler.loadAverage());
        return met ? 0 : 1;
    }

    /**
     * Waits (at most 10 minutes, polling once a second) until every Workload in team-a is Finished; the seconds it took
     * after the round's last create was answered, or -1 when they did not all finish in time.
     */
    private static double drain(CreateLoad berth) throws Exception {
        long started = System.nanoTime();
        long deadline = started + Duration.ofMinutes(10).toNanos();
        while (System.nanoTime() < deadline) {
            int unfinished = 0;
            for (JsonNode workload : JSON.readTree(berth.get("/apis/kueue.x-k8s.io/v1beta2/namespaces/team-a/workloads")).path("items")) {
                boolean finished = false;
                for (JsonNode condition : workload.path("status").path("conditions")) {
                    finished |= condition.path("type").asText().equals("Finished") && condition.path("status").asText().equals("True");
                }
                if (!finished) unfinished++;
            }
            if (unfinished == 0) return (System.nanoTime() - started) / 1e9;
            Thread.sleep(1000);
        }
        return -1;
    }

    /**
     * {@code --dispatch held}: team-a-cq gets stopPolicy Hold (through the API, as an operator would), so Berth's side
     * does what the bare side does, accept and store, and no worker runs the Jobs while the rounds go on: the API
     * alone is measured, not the API sharing two cores with dispatch and the three workers running what it accepted.
     */
    private static void holdTeamA(CreateLoad berth) throws Exception {
        int status = berth.mergePatch("/apis/kueue.x-k8s.io/v1beta2/clusterqueues/team-a-cq", "{\"spec\":{\"stopPolicy\":\"Hold\"}}");
        if (status != 200) throw new IllegalStateException("holding team-a-cq answered " + status);
        System.out.println("team-a-cq held (stopPolicy Hold): Berth's Jobs stay pending, nothing is dispatched");
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /** The admin's token from the quickstart's token file (this run's own, in its temporary home). */
    private static String adminToken(Path tokens) throws java.io.IOException {
        for (String line : Files.readAllLines(tokens)) {
            String[] fields = line.split(",");
            if (fields.length >= 2 && fields[1].equals(QuickstartCredentials.ADMIN_USER)) return fields[0];
        }
        throw new IllegalStateException("no admin token in " + tokens);
    }
}
