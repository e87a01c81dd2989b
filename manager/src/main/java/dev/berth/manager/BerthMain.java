package dev.berth.manager;

import dev.berth.manager.api.ObjectCountLimits;
import dev.berth.manager.config.KueueConfigurationFile;
import dev.berth.manager.config.ManagerSettings;
import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.security.SecurityFlags;
import dev.berth.manager.controller.BerthManager;
import dev.berth.manager.controller.DispatchConfig;
import dev.berth.manager.clusters.StandbyClients;
import dev.berth.manager.ha.ManagerReplica;
import dev.berth.manager.ha.StandbyWork;
import dev.berth.manager.controller.TakeoverRehearsal;
import dev.berth.manager.store.ObjectStore;
import io.vertx.core.Vertx;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Starts the manager. {@code quickstart} (the default) serves on http://localhost:8080 with an
 * embedded file store under {@code .berth/data} and loads the example queues from {@code examples/queues}.
 *
 * <pre>
 * berth [quickstart] [--config KUEUE_CONFIG.yaml] [--host H] [--port P] [--data DIR] [--examples DIR] [--fair-sharing]
 *                    [--retain-finished DURATION] [--scheduling-batch-millis 10]
 *                    [--worker-lost-timeout 15m] [--lease-duration 60s] ...
 *                    [--store file|postgres] [--pg-url JDBC] [--pg-user U] [--pg-password-file F] [--pg-schema S]
 *                    [--cluster-members h:p,h:p | --kubernetes-service-dns NAME] [--replica-id ID] [--cluster-host H]
 *                    [--cluster-port P] [--eventbus-port P] [--advertise-url URL] [--min-members-to-lead N]
 *                    [--heartbeat-timeout-seconds S] [--cluster-name NAME] [--expected-members N]
 *                    [--join-timeout-seconds S] [--encryption-provider-config FILE]
 *                    [--replica-ca-file F --replica-cert-file F --replica-key-file F] [--replica-allowed-names a,b]
 *                    [--replica-port 9443]
 *                    [security flags, see SecurityFlags and docs/operations.md]
 * </pre>
 * --config takes a Kueue Configuration file (config.kueue.x-k8s.io/v1beta2) as it is; flags and their
 * environment variables override it (see config.ManagerSettings and docs/operations.md).
 * Dispatch and failover options ({@link DispatchConfig#NAMES}) are flags (--worker-lost-timeout 30s) or
 * environment variables (BERTH_WORKER_LOST_TIMEOUT=30s); a flag wins. A bad value, or a dispatch lease
 * not shorter than workerLostTimeout, stops the start with a message naming the option.
 * Every store and replica flag also reads from its environment variable ({@link LaunchSettings#FLAGS}).
 * With cluster members (or a Kubernetes service DNS name) the manager runs as one replica of several
 * over a shared PostgreSQL store: one leads, the others serve reads and forward writes.
 */
public final class BerthMain {
    private BerthMain() {}

    /** --scheduling-batch-millis: whole milliseconds, 0 to decide every change before its write is answered. */
    private static Duration batchWindow(String value) {
        try {
            long millis = Long.parseLong(value);
            if (millis >= 0 && millis <= 1_000) return Duration.ofMillis(millis);
        } catch (NumberFormatException notANumber) {
            // reported below
        }
        System.err.println("--scheduling-batch-millis: expected whole milliseconds from 0 to 1000, got '" + value + "'");
        System.exit(2);
        return null;
    }

    /** --shutdown-delay-duration: a Go duration, as kube-apiserver's flag of that name ("0s", "70s", "1m"). */
    private static Duration shutdownDelay(String value) {
        Duration delay = dev.berth.manager.config.GoDuration.parse(value);
        if (delay != null && !delay.isNegative() && delay.compareTo(Duration.ofMinutes(10)) <= 0) return delay;
        System.err.println("--shutdown-delay-duration: expected a duration from 0s to 10m such as 70s, got '" + value + "'");
        System.exit(2);
        return null;
    }

    public static void main(String[] args) throws Exception {
        String host = "127.0.0.1";
        int port = 8080;
        Path data = Path.of(".berth", "data");
        Path examples = Path.of("examples", "queues");
        boolean fairSharing = false;
        Duration retain = null;
        Duration batchWindow = SchedulerOptions.DEFAULT_BATCH_WINDOW;
        Duration shutdownDelay = dev.berth.manager.api.GracefulShutdown.DEFAULT_DELAY;
        dev.berth.manager.core.PodsReadyPolicy waitForPodsReady = dev.berth.manager.core.PodsReadyPolicy.DISABLED;
        Map<String, String> dispatch = new LinkedHashMap<>(DispatchConfig.fromEnvironment(System.getenv()));
        Path kueueConfig = null;
        LaunchSettings settings = new LaunchSettings(System.getenv());
        Map<String, String> securityFlags = new HashMap<>();
        ObjectCountLimits objectCounts = ObjectCountLimits.DEFAULTS;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "quickstart" -> { }
                case "--host" -> host = args[++i];
                case "--port" -> port = Integer.parseInt(args[++i]);
                case "--data" -> data = Path.of(args[++i]);
                case "--examples" -> examples = Path.of(args[++i]);
                case "--config" -> kueueConfig = Path.of(args[++i]);
                case "--fair-sharing" -> fairSharing = true;
                case "--retain-finished" -> retain = Duration.parse(args[++i]);
                case "--scheduling-batch-millis" -> batchWindow = batchWindow(args[++i]);
                case "--shutdown-delay-duration" -> shutdownDelay = shutdownDelay(args[++i]);
                case "--max-objects-per-namespace" -> objectCounts = ObjectCountLimits.parse(args[++i]);
                case PodsReadyFlag.NAME -> waitForPodsReady = PodsReadyFlag.parseOrExit(args[++i]);
                default -> {
                    if (SecurityFlags.NAMES.contains(args[i]) && i + 1 < args.length) {
                        securityFlags.put(args[i], args[++i]);
                        continue;
                    }
                    if (LaunchSettings.FLAGS.containsKey(args[i]) && i + 1 < args.length) {
                        settings.setFlag(args[i], args[++i]);
                        continue;
                    }
                    String option = args[i].startsWith("--") ? args[i].substring(2) : "";
                    if (DispatchConfig.NAMES.contains(option) && i + 1 < args.length) {
                        dispatch.put(option, args[++i]);
                        continue;
                    }
                    System.err.println("unknown argument: " + args[i]);
                    System.err.println("usage: berth [quickstart] [--config FILE] [--host H] [--port P] [--data DIR] [--examples DIR] [--fair-sharing] [--retain-finished PT1H] [--scheduling-batch-millis 10] [--shutdown-delay-duration 0s] [--max-objects-per-namespace workloads.kueue.x-k8s.io=1000,pods=5000,default=1000]");
                    System.err.println("dispatch and failover options: " + DispatchConfig.NAMES.stream().map(n -> "--" + n).toList());
                    System.exit(2);
                }
            }
        }
        ManagerSettings managerSettings;
        try {
            managerSettings = KueueConfigurationFile.settings(kueueConfig, new ManagerSettings.Flags(fairSharing, retain, batchWindow, dispatch, waitForPodsReady));
        } catch (IllegalArgumentException invalid) {
            System.err.println(invalid.getMessage());
            System.exit(2);
            return;
        }
        ObjectStore store;
        try {
            store = settings.openStore(data, Clock.systemUTC());
        } catch (IllegalArgumentException | IllegalStateException cannotOpen) {
            System.err.println(cannotOpen.getMessage());
            System.exit(2);
            return;
        }
        var security = SecurityFlags.parse(securityFlags, data);
        ObjectCountLimits limits = objectCounts;
        if (settings.replicated()) {
            if (security.isPresent() && settings.replicaTrust() == null) {
                System.err.println("secured replicas need replica TLS: --replica-ca-file, --replica-cert-file and --replica-key-file"
                        + " (followers forward callers' identities to the leader over mutual TLS, never their tokens)");
                System.exit(2);
                return;
            }
            ManagerReplica replica = ManagerReplica.start(settings.replicaOptions(host, port), store, () -> {
                BerthManager leading = managerSettings.newManager(store, Clock.systemUTC()).objectCountLimits(limits);
                security.ifPresent(secured -> leading.secure(secured.withoutTls()));
                return leading;
            }, security.orElse(null), settings.replicaTrust(), new StandbyWork(new StandbyClients(managerSettings.dispatch().resilience(),
                    managerSettings.dispatch().managerId(), Clock.systemUTC(), StandbyClients.DEFAULT_PROBE_EVERY),
                    () -> TakeoverRehearsal.rehearse(store, Clock.systemUTC(), managerSettings.scheduler(), managerSettings.jobIntegration())));
            replica.shutdownDelay(shutdownDelay);
            System.out.println("Berth manager replica " + replica.replicaId() + " is serving the Kubernetes API on port "
                    + replica.port() + " (store: " + settings.describeStore(data) + ")");
            Runtime.getRuntime().addShutdownHook(new Thread(replica::close));
            return;
        }
        BerthManager manager = managerSettings.newManager(store, Clock.systemUTC()).objectCountLimits(objectCounts)
                .shutdownDelay(shutdownDelay);
        security.ifPresent(manager::secure);
        Vertx vertx = Vertx.vertx();
        manager.start(vertx, host, port).await();
        int loaded = Files.isDirectory(examples) ? manager.loadManifests(examples) : 0;
        String url = (security.flatMap(o -> o.tls()).isPresent() ? "https://" : "http://") + ("0.0.0.0".equals(host) ? "localhost" : host) + ":" + manager.port();
        for (String line : List.of(
                "Berth manager is serving the Kubernetes API on " + url,
                "  store: " + settings.describeStore(data) + (loaded > 0 ? " (loaded " + loaded + " example objects from " + examples + ")" : ""),
                "  queues:    curl -s " + url + "/apis/kueue.x-k8s.io/v1beta2/clusterqueues",
                "  submit:    curl -s -X POST -H 'Content-Type: application/yaml' --data-binary @examples/jobs/sample-job.yaml "
                        + url + "/apis/batch/v1/namespaces/team-a/jobs",
                "  workloads: curl -s " + url + "/apis/kueue.x-k8s.io/v1beta2/namespaces/team-a/workloads")) {
            System.out.println(line);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            manager.close();
            vertx.close();
        }));
    }
}
