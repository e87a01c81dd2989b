package dev.berth.virtualcluster;

import ch.qos.logback.classic.Level;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.slf4j.LoggerFactory;

/**
 * Runs one virtual cluster as a process:
 * {@code VirtualClusterMain --name <name> --dir <dir> --profile <profile> [--spot] [--period-ms 200] [--ignore-stdin]
 * [--bind-host 127.0.0.1] [--port 0] [--advertise-host HOST] [--request-log FILE]}. In a container, bind 0.0.0.0 on a fixed port and
 * advertise the container's network alias: the kubeconfig then works from the other containers on that network.
 * Each distinct kind of API request, with the identity that made it, goes to the request log
 * ({@code <dir>/api-requests.tsv} by default). Prints {@code READY <port> <kubeconfig>} once serving and writes {@code <dir>/ready} with the port.
 * Stops cleanly on SIGTERM or when stdin closes (unless --ignore-stdin, for shell scripts).
 */
public final class VirtualClusterMain {
    /** Held so that java.util.logging keeps the level set on it. */
    private static final java.util.logging.Logger MOCK_SERVER_LOG = java.util.logging.Logger.getLogger("io.fabric8.mockwebserver");

    private VirtualClusterMain() {}

    public static void main(String[] args) throws Exception {
        quietLogging();
        Map<String, String> options = parse(args);
        String name = require(options, "name");
        Path dir = Path.of(require(options, "dir")).toAbsolutePath();
        ClusterProfile profile = ClusterProfile.parse(require(options, "profile"));
        boolean spot = options.containsKey("spot");
        Duration period = Duration.ofMillis(Long.parseLong(options.getOrDefault("period-ms",
            Long.toString(VirtualCluster.DEFAULT_PERIOD.toMillis()))));

        ServingAddress address = ServingAddress.of(options.getOrDefault("bind-host", "127.0.0.1"),
            Integer.parseInt(options.getOrDefault("port", "0")), options.get("advertise-host"));

        Path requestLog = Path.of(options.getOrDefault("request-log", dir.resolve(VirtualCluster.REQUEST_LOG_FILE).toString())).toAbsolutePath();
        ProvisionerProfile autoscaling = options.containsKey("autoscaling") ? ProvisionerProfile.parse(options.get("autoscaling")) : null;
        VirtualCluster cluster = VirtualCluster.start(name, profile, dir, spot, period, address, requestLog, autoscaling);
        CountDownLatch stopped = new CountDownLatch(1);
        Thread shutdown = new Thread(() -> {
            cluster.close();
            stopped.countDown();
        }, "virtual-cluster-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdown);

        Files.writeString(dir.resolve("ready"), cluster.port() + "\n", StandardCharsets.UTF_8);
        System.out.println("READY " + cluster.port() + " " + cluster.kubeconfig());
        System.out.flush();

        if (options.containsKey("ignore-stdin")) {
            stopped.await();
            return;
        }
        waitForStdinToClose(System.in);
        System.exit(0);
    }

    private static void waitForStdinToClose(InputStream in) {
        byte[] buffer = new byte[256];
        try {
            while (in.read(buffer) >= 0) {
                // the parent writes nothing; we only wait for the end of the stream
            }
        } catch (IOException e) {
            // a broken pipe means the parent is gone: stop too
        }
    }

    private static Map<String, String> parse(String[] args) {
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("unexpected argument '" + args[i] + "'");
            }
            String key = args[i].substring(2);
            if (key.equals("spot") || key.equals("ignore-stdin")) {
                options.put(key, "true");
            } else if (i + 1 < args.length) {
                options.put(key, args[++i]);
            } else {
                throw new IllegalArgumentException("--" + key + " needs a value");
            }
        }
        return options;
    }

    private static String require(Map<String, String> options, String key) {
        String value = options.get(key);
        if (value == null) {
            throw new IllegalArgumentException("missing --" + key
                + " (usage: --name <name> --dir <dir> --profile a100:3x8[,h100:2x8][,cpu:2] [--spot] [--period-ms 200] [--ignore-stdin]"
                + " [--bind-host 127.0.0.1] [--port 0] [--advertise-host HOST] [--request-log FILE] [--autoscaling h100:max=4,delay=2,fail=1])");
        }
        return value;
    }

    /** The mock server and the HTTP stack log a lot at DEBUG; a cluster log should show the simulator. */
    private static void quietLogging() {
        if (LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME) instanceof ch.qos.logback.classic.Logger root
            && System.getProperty("logback.configurationFile") == null) {
            root.setLevel(Level.INFO);
            ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger("io.fabric8")).setLevel(Level.WARN);
            ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger("io.vertx")).setLevel(Level.WARN);
            ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger("io.netty")).setLevel(Level.WARN);
            // "unstable version v1alpha2" is expected: JobSet and RemoteWorkload are alpha APIs.
            ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(
                "io.fabric8.kubernetes.client.dsl.internal.VersionUsageUtils")).setLevel(Level.ERROR);
        }
        // MockWebServer logs every request through java.util.logging at INFO.
        MOCK_SERVER_LOG.setLevel(java.util.logging.Level.WARNING);
    }
}
