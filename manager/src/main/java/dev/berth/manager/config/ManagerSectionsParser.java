package dev.berth.manager.config;

import dev.berth.manager.config.KueueConfiguration.ClientConnection;
import dev.berth.manager.config.KueueConfiguration.ControllerManager;
import dev.berth.manager.config.KueueConfiguration.InternalCertManagement;
import dev.berth.manager.config.KueueConfiguration.Metrics;
import dev.berth.manager.config.KueueConfiguration.VisibilityServer;
import java.time.Duration;
import java.util.Map;

/**
 * The controller-runtime manager's sections of a Kueue Configuration (webhook, leaderElection, health,
 * metrics, controller, tls, pprofBindAddress, internalCertManagement, clientConnection, visibilityServer),
 * with Kueue's defaults.
 */
final class ManagerSectionsParser {
    record Sections(Metrics metrics, ControllerManager controllerManager, InternalCertManagement internalCertManagement,
                    ClientConnection clientConnection, VisibilityServer visibilityServer) {}

    private ManagerSectionsParser() {}

    static Sections read(ConfigSection root, boolean v1beta1) {
        Integer webhookPort = 9443;
        String webhookHost = null;
        String certDir = "/tmp/k8s-webhook-server/serving-certs";
        ConfigSection webhook = root.section("webhook");
        if (webhook != null) {
            webhookPort = webhook.integer("port", webhookPort);
            webhookHost = webhook.string("host", null);
            certDir = webhook.string("certDir", certDir);
            webhook.done();
        }
        Map<String, Object> leaderElection = root.object("leaderElection");
        String healthAddress = ":8081";
        ConfigSection health = root.section("health");
        if (health != null) {
            healthAddress = health.string("healthProbeBindAddress", healthAddress);
            health.string("readinessEndpointName", null);
            health.string("livenessEndpointName", null);
            health.done();
        }
        String pprof = root.string("pprofBindAddress", null);
        Map<String, Object> groupKindConcurrency = null;
        Duration cacheSyncTimeout = Duration.ofMinutes(2);
        ConfigSection controller = root.section("controller");
        if (controller != null) {
            groupKindConcurrency = controller.object("groupKindConcurrency");
            cacheSyncTimeout = controller.durationOrNanos("cacheSyncTimeout", cacheSyncTimeout);
            controller.done();
        }
        Map<String, Object> tls = root.object("tls");
        Metrics metrics = metrics(root.section("metrics"));
        InternalCertManagement certs = new InternalCertManagement(true, "kueue-webhook-service", "kueue-webhook-server-cert");
        ConfigSection certSection = root.section("internalCertManagement");
        if (certSection != null) {
            boolean enable = certSection.bool("enable", true);
            certs = new InternalCertManagement(enable, certSection.string("webhookServiceName", enable ? "kueue-webhook-service" : null),
                    certSection.string("webhookSecretName", enable ? "kueue-webhook-server-cert" : null));
            certSection.done();
        }
        ClientConnection client = new ClientConnection(300, 500);
        ConfigSection clientSection = root.section("clientConnection");
        if (clientSection != null) {
            client = new ClientConnection(clientSection.number("qps", 300.0), clientSection.integer("burst", 500));
            clientSection.done();
        }
        VisibilityServer visibility = new VisibilityServer(null, 8082);
        ConfigSection visibilitySection = v1beta1 ? null : root.section("visibilityServer");
        if (visibilitySection != null) {
            visibility = new VisibilityServer(visibilitySection.string("bindAddress", null), visibilitySection.integer("bindPort", 8082));
            visibilitySection.done();
        }
        return new Sections(metrics, new ControllerManager(webhookPort, webhookHost, certDir, leaderElection, healthAddress, pprof,
                groupKindConcurrency, cacheSyncTimeout, tls), certs, client, visibility);
    }

    private static Metrics metrics(ConfigSection section) {
        if (section == null) return new Metrics(":8443", false, java.util.List.of(), true, null);
        String bindAddress = section.string("bindAddress", ":8443");
        boolean clusterQueueResources = section.bool("enableClusterQueueResources", false);
        var customLabels = section.objects("customLabels");
        boolean localQueues = true;
        Map<String, Object> localQueueSelector = null;
        ConfigSection localQueueMetrics = section.section("localQueueMetrics");
        if (localQueueMetrics != null) {
            localQueues = localQueueMetrics.bool("enable", false);
            localQueueSelector = localQueueMetrics.object("localQueueSelector");
            localQueueMetrics.done();
        }
        section.done();
        return new Metrics(bindAddress, clusterQueueResources, customLabels, localQueues, localQueueSelector);
    }
}
