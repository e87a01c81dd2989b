package dev.berth.virtualcluster.proxy;

import io.vertx.core.Vertx;
import java.util.concurrent.TimeUnit;

/**
 * Runs a {@link LatencyProxy}:
 * {@code LatencyProxyMain --target HOST:PORT [--host 0.0.0.0] [--port 7000] [--control-port 7001]}.
 * Prints {@code READY <port> <controlPort>} once serving; stops on SIGTERM.
 */
public final class LatencyProxyMain {
    private static final String USAGE = "usage: LatencyProxyMain --target HOST:PORT [--host 0.0.0.0] [--port 7000] [--control-port 7001]";

    private LatencyProxyMain() {}

    public static void main(String[] args) throws Exception {
        String host = "0.0.0.0";
        int port = 7000;
        int controlPort = 7001;
        ProxyTarget target = null;
        try {
            for (int i = 0; i < args.length; i++) {
                if (i + 1 >= args.length) throw new IllegalArgumentException(args[i] + " needs a value; " + USAGE);
                switch (args[i]) {
                    case "--target" -> target = ProxyTarget.parse(args[++i]);
                    case "--host" -> host = args[++i];
                    case "--port" -> port = Integer.parseInt(args[++i]);
                    case "--control-port" -> controlPort = Integer.parseInt(args[++i]);
                    default -> throw new IllegalArgumentException("unknown argument " + args[i] + "; " + USAGE);
                }
            }
            if (target == null) throw new IllegalArgumentException("--target is required; " + USAGE);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        if (org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME) instanceof ch.qos.logback.classic.Logger root
                && System.getProperty("logback.configurationFile") == null) {
            root.setLevel(ch.qos.logback.classic.Level.INFO); // Netty and Vert.x log every DNS query at DEBUG
        }
        Vertx vertx = Vertx.vertx();
        LatencyProxy proxy = new LatencyProxy(vertx, target);
        proxy.start(host, port, controlPort).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            proxy.close();
            vertx.close();
        }, "latency-proxy-shutdown"));
        System.out.println("READY " + proxy.port() + " " + proxy.controlPort());
        System.out.flush();
    }
}
