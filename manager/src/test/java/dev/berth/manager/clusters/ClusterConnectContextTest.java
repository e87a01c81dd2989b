package dev.berth.manager.clusters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.vertx.core.Vertx;
import java.net.InetAddress;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A worker cluster's client has a Vert.x instance of its own; it is built on a plain thread, never
 * on a Vert.x one, so connecting from the manager's event loop neither nests Vert.x instances nor
 * logs Vert.x's "You're already on a Vert.x context" warning (which the quickstart printed once per
 * cluster).
 */
class ClusterConnectContextTest {
    private final ListAppender<ILoggingEvent> vertxLog = new ListAppender<>();
    private final Logger vertxImpl = (Logger) LoggerFactory.getLogger("io.vertx.core.impl.VertxImpl");
    private final ExecutorService stateThread = Executors.newSingleThreadExecutor();
    private Vertx vertx;
    private KubernetesMockServer api;
    private WorkerClusters clusters;

    @BeforeEach
    void start() throws Exception {
        vertxLog.start();
        vertxImpl.addAppender(vertxLog);
        vertx = Vertx.vertx();
        api = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), new KubernetesCrudDispatcher(), false);
        api.init(InetAddress.getByName("127.0.0.1"), 0);
    }

    @AfterEach
    void stop() {
        vertxImpl.detachAppender(vertxLog);
        if (clusters != null) stateThread.submit(clusters::close);
        stateThread.shutdown();
        api.destroy();
        vertx.close().await();
    }

    @Test
    void connectingFromAVertxContextBuildsTheClientOffIt() {
        List<String> connections = new CopyOnWriteArrayList<>();
        ClusterEvents events = new ClusterEvents() {
            @Override
            public void connectionChanged(String cluster, boolean connected, String message) {
                connections.add(cluster + "=" + connected);
            }

            @Override
            public void capacityChanged(String cluster) {
            }

            @Override
            public void attemptsListed(String cluster, List<dev.berth.protocol.crd.RemoteWorkload> attempts) {
            }
        };
        clusters = new WorkerClusters(stateThread, events, "test-origin");
        String kubeconfig = """
                apiVersion: v1
                kind: Config
                clusters:
                - name: east
                  cluster: {server: "%s"}
                contexts:
                - name: east
                  context: {cluster: east}
                current-context: east
                """.formatted(api.url("/").replaceAll("/$", ""));
        vertx.runOnContext(ignored -> stateThread.execute(() -> clusters.connect("east", KubeconfigSource.ofContent(kubeconfig))));
        // the manager calls connect from its state thread; make the Vert.x case explicit too
        vertx.runOnContext(ignored -> clusters.connect("west", KubeconfigSource.ofContent(kubeconfig.replace("east", "west"))));

        await().atMost(Duration.ofSeconds(30)).until(() -> connections.contains("east=true") && connections.contains("west=true"));
        assertThat(vertxLog.list).extracting(ILoggingEvent::getFormattedMessage)
                .noneMatch(message -> message.contains("already on a Vert.x context"));
    }
}
