package dev.berth.system;

import dev.berth.manager.config.KueueConfigurationFile;
import dev.berth.manager.config.ManagerSettings;
import dev.berth.manager.security.QuickstartCredentials;
import dev.berth.manager.store.FileObjectStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * The README's run command: the manager on https://127.0.0.1:8080 with an embedded file store, TLS
 * from a self-signed pair, bearer tokens (an admin and a team-a tenant) and the example RBAC; three
 * virtual GPU clusters (A100 on-demand, H100 in 2 blocks of 2 racks of 2 nodes, A100 spot), each in its own process with its agent;
 * the example queues, the MultiKueue setup and the Topology with its TAS queue (examples/topology) are loaded. Writes a kubeconfig with a context for the
 * admin and one for the tenant. Tokens stay in files of mode 0600 and are never printed: the banner's
 * dashboard link carries a one-time code instead.
 */
public final class Quickstart {
    private Quickstart() {}

    public static final List<WorkerClusterSpec> CLUSTERS = List.of(
            new WorkerClusterSpec("a100-ondemand", "a100:2x8,cpu:2", false),
            new WorkerClusterSpec("h100", "h100:2b2r2x8,cpu:1", false),
            new WorkerClusterSpec("a100-spot", "a100:2x8", true));

    public static void main(String[] args) throws Exception {
        int port = 8080;
        Path home = Path.of(".berth");
        Path kueueConfig = null;
        String logFormat = "text";
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(args[++i]);
                case "--home" -> home = Path.of(args[++i]);
                case "--config" -> kueueConfig = Path.of(args[++i]);
                case "--log-format" -> logFormat = args[++i];
                default -> {
                    System.err.println("usage: berth quickstart [--port 8080] [--home .berth] [--config KUEUE_CONFIG.yaml] [--log-format text|json]");
                    System.exit(2);
                }
            }
        }
        if (!logFormat.equals("text") && !logFormat.equals("json")) {
            System.err.println("--log-format must be text or json, not " + logFormat);
            System.exit(2);
        }
        Path logFile = chooseLogging(home, logFormat);
        System.out.println("Berth quickstart: starting the manager and " + CLUSTERS.size()
                + " virtual GPU clusters (JSON log in " + logFile + ")");
        ManagerSettings settings;
        try {
            settings = KueueConfigurationFile.settings(kueueConfig, ManagerSettings.Flags.NONE);
        } catch (IllegalArgumentException invalid) {
            System.err.println(invalid.getMessage());
            System.exit(2);
            return;
        }
        Path data = home.resolve("data");
        Files.createDirectories(data);
        List<Path> manifests = new ArrayList<>();
        for (String folder : List.of("examples/queues", "examples/multikueue", "examples/topology", "examples/rbac")) {
            if (Files.isDirectory(Path.of(folder))) manifests.add(Path.of(folder));
        }
        QuickstartCredentials credentials = QuickstartCredentials.prepare(home.resolve("security"), Clock.systemUTC());
        BerthSystem system = BerthSystem.start(home.resolve("quickstart"), CLUSTERS, FileObjectStore.open(data, Clock.systemUTC()),
                settings.scheduler(), settings.dispatch(), "127.0.0.1", port, manifests, credentials.options(), settings.integrations());
        Runtime.getRuntime().addShutdownHook(new Thread(system::close, "berth-quickstart-shutdown"));
        String url = system.apiUrl();
        Path kubeconfig = credentials.writeKubeconfig(home.resolve("kubeconfig"), url).toAbsolutePath();
        System.out.println();
        System.out.println("Berth is running.");
        System.out.println("  API:        " + url + "  (TLS, self-signed)");
        System.out.println("  dashboard:  " + dashboardLink(credentials, url));
        System.out.println("              (signs a browser in as " + QuickstartCredentials.ADMIN_USER
                + "; works once, for 10 minutes; a fresh one: bin/berth dashboard-link)");
        System.out.println("  logs:       " + logFile + "  (JSON, one object per line)");
        System.out.println("  kubeconfig: " + kubeconfig + "  (contexts " + QuickstartCredentials.ADMIN_CONTEXT + " and "
                + QuickstartCredentials.TENANT_CONTEXT + ")");
        for (RunningWorker worker : system.workers()) {
            System.out.println("  cluster:    " + worker.name() + "  (API http://127.0.0.1:" + worker.cluster().port()
                    + ", kubeconfig " + worker.cluster().kubeconfig().toAbsolutePath() + ")");
        }
        System.out.println();
        System.out.println("  export KUBECONFIG=" + kubeconfig);
        System.out.println("  kubectl get clusterqueues");
        System.out.println("  kubectl --context " + QuickstartCredentials.TENANT_CONTEXT + " create -f examples/jobs/sample-job.yaml");
        System.out.println("  kubectl --context " + QuickstartCredentials.TENANT_CONTEXT + " get workloads -n team-a");
        System.out.println("Stop with Ctrl-C. Events follow: clusters connecting, workloads admitted, dispatched, finished.");
        System.out.println();
    }

    /** A one-time sign-in link to the dashboard; the plain address if the manager would not mint one (the banner still prints). */
    private static String dashboardLink(QuickstartCredentials credentials, String url) {
        try {
            return credentials.dashboardLink(url, java.time.Duration.ofSeconds(10));
        } catch (RuntimeException refused) {
            return url + "/dashboard/  (no sign-in link: " + refused.getMessage() + ")";
        }
    }

    /**
     * Selects the quickstart's logging before anything logs: readable event lines on the console (or JSON with
     * {@code --log-format json}) and the JSON log in {@code <home>/logs/berth.log}. Returns the log file.
     */
    private static Path chooseLogging(Path home, String format) throws java.io.IOException {
        Path logFile = home.resolve("logs").resolve("berth.log").toAbsolutePath();
        Files.createDirectories(logFile.getParent());
        if (System.getProperty("logback.configurationFile") == null) {
            System.setProperty("logback.configurationFile", "berth-quickstart-logback.xml");
        }
        System.setProperty("berth.log.file", logFile.toString());
        System.setProperty("berth.log.console", format.equals("json") ? "JSON" : "TEXT");
        return logFile;
    }
}
