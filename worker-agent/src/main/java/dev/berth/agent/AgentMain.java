package dev.berth.agent;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.vertx5.Vertx5HttpClientFactory;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Starts a worker agent: parses arguments, connects to the cluster on one shared Vert.x, stops cleanly on shutdown. */
public final class AgentMain {
    private static final Logger LOG = LoggerFactory.getLogger(AgentMain.class);

    private AgentMain() {}

    public static void main(String[] args) throws Exception {
        AgentConfig config;
        try {
            config = AgentConfig.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        Vertx vertx = Vertx.vertx();
        KubernetesClient client = connect(vertx, config);
        Agent agent = new Agent(vertx, client, config, Clock.systemUTC());
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            LOG.atInfo().addKeyValue("cluster", config.name()).log("agent stopping");
            try {
                agent.stop().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
            } catch (Exception e) {
                LOG.atWarn().addKeyValue("cluster", config.name()).addKeyValue("error", e.toString()).log("unclean stop");
            }
            client.close();
            vertx.close();
        }, "berth-agent-shutdown"));
        agent.start().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    /** A client from --kubeconfig, else fabric8's auto-configuration (in-cluster service account, KUBECONFIG, ~/.kube/config). */
    static KubernetesClient connect(Vertx vertx, AgentConfig config) {
        Config kubeConfig = config.kubeconfig()
                .map(path -> Config.fromKubeconfig(path.toFile()))
                .orElseGet(() -> new ConfigBuilder().build());
        // Fail a request within seconds rather than retrying for a minute: the loops retry on their own schedule,
        // and a heartbeat that hangs would keep /readyz from reporting the outage.
        kubeConfig.setRequestRetryBackoffLimit(2);
        return new KubernetesClientBuilder().withConfig(kubeConfig).withHttpClientFactory(new Vertx5HttpClientFactory(vertx)).build();
    }
}
