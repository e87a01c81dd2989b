package dev.berth.manager;

import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.server.BerthManager;
import dev.berth.manager.store.FileObjectStore;
import io.vertx.core.Vertx;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

/**
 * Starts the manager. {@code quickstart} (the default) serves on http://localhost:8080 with an
 * embedded file store under {@code .berth/data} and loads the example queues from {@code examples/queues}.
 *
 * <pre>
 * berth [quickstart] [--host H] [--port P] [--data DIR] [--examples DIR] [--fair-sharing]
 *                    [--retain-finished DURATION] [security flags, see SecurityFlags and docs/operations.md]
 * </pre>
 */
public final class BerthMain {
    private BerthMain() {}

    public static void main(String[] args) throws Exception {
        String host = "127.0.0.1";
        int port = 8080;
        Path data = Path.of(".berth", "data");
        Path examples = Path.of("examples", "queues");
        boolean fairSharing = false;
        Duration retain = null;
        java.util.Map<String, String> securityFlags = new java.util.HashMap<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "quickstart" -> { }
                case "--host" -> host = args[++i];
                case "--port" -> port = Integer.parseInt(args[++i]);
                case "--data" -> data = Path.of(args[++i]);
                case "--examples" -> examples = Path.of(args[++i]);
                case "--fair-sharing" -> fairSharing = true;
                case "--retain-finished" -> retain = Duration.parse(args[++i]);
                default -> {
                    if (dev.berth.manager.security.SecurityFlags.NAMES.contains(args[i]) && i + 1 < args.length) {
                        securityFlags.put(args[i], args[++i]);
                        continue;
                    }
                    System.err.println("unknown argument: " + args[i]);
                    System.err.println("usage: berth [quickstart] [--host H] [--port P] [--data DIR] [--examples DIR] [--fair-sharing] [--retain-finished PT1H]");
                    System.exit(2);
                }
            }
        }
        Files.createDirectories(data);
        SchedulerOptions options = new SchedulerOptions(fairSharing, SchedulerOptions.DEFAULTS.preemptionStrategies(), retain);
        BerthManager manager = new BerthManager(FileObjectStore.open(data, Clock.systemUTC()), Clock.systemUTC(), options);
        var security = dev.berth.manager.security.SecurityFlags.parse(securityFlags, data);
        security.ifPresent(manager::secure);
        Vertx vertx = Vertx.vertx();
        manager.start(vertx, host, port).await();
        int loaded = Files.isDirectory(examples) ? manager.loadManifests(examples) : 0;
        String url = (security.flatMap(o -> o.tls()).isPresent() ? "https://" : "http://") + ("0.0.0.0".equals(host) ? "localhost" : host) + ":" + manager.port();
        for (String line : List.of(
                "Berth manager is serving the Kubernetes API on " + url,
                "  store: " + data.toAbsolutePath() + (loaded > 0 ? " (loaded " + loaded + " example objects from " + examples + ")" : ""),
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
