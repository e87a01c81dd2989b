package dev.berth.agent;

import dev.berth.protocol.Annotations;
import dev.berth.protocol.crd.BerthCrds;
import dev.berth.protocol.crd.CapacityReport;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent's sign of life: Lease berth-system/berth-agent renewed every heartbeat, holding the
 * capacity report per flavor of the catalogue and the highest fencing epoch accepted. Namespace
 * berth-system is the installation's (deploy/worker-agent/base): the agent needs no right on
 * Namespaces, only on its Lease there.
 */
public final class Heartbeat {
    private static final Logger LOG = LoggerFactory.getLogger(Heartbeat.class);
    public static final String AGENT_VERSION = "0.1.0";

    private final KubernetesClient client;
    private final AutoscalingProfile autoscaling;
    private final AgentConfig config;
    private final FencingGuard fencing;
    private final FlavorCatalogue catalogue;
    private final AttemptObjects objects;
    private final ClusterCaches caches;
    private final AgentMetrics metrics;
    private final AgentHealth health;
    private final Clock clock;
    private final Supplier<Optional<ClusterSnapshot>> reconciledSnapshot;

    public Heartbeat(KubernetesClient client, AgentConfig config, FencingGuard fencing, AttemptObjects objects,
                     ClusterCaches caches, AgentMetrics metrics, AgentHealth health, Clock clock, Supplier<Optional<ClusterSnapshot>> reconciledSnapshot) {
        this.reconciledSnapshot = reconciledSnapshot;
        this.client = client;
        this.autoscaling = new AutoscalingProfile(client);
        this.config = config;
        this.fencing = fencing;
        this.catalogue = new FlavorCatalogue(client);
        this.objects = objects;
        this.caches = caches;
        this.metrics = metrics;
        this.health = health;
        this.clock = clock;
    }

    /** The epoch persisted by a previous run of the agent, so a restart does not forget what it fenced off. */
    public Optional<Long> persistedFencingEpoch() {
        Lease lease = client.leases().inNamespace(BerthCrds.SYSTEM_NAMESPACE).withName(BerthCrds.AGENT_LEASE).get();
        return lease == null ? Optional.empty() : epochOf(lease);
    }


    private static Optional<Long> epochOf(Lease lease) {
        if (lease.getMetadata().getAnnotations() == null) return Optional.empty();
        String value = lease.getMetadata().getAnnotations().get(Annotations.AGENT_FENCING_EPOCH);
        try {
            return value == null ? Optional.empty() : Optional.of(Long.parseLong(value.trim()));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * One heartbeat; never throws: a failure is counted, logged and makes the agent unready. Capacity
     * comes from the last reconcile pass when there is one, so GPUs held for admitted attempts whose
     * pods are not bound yet are not reported free; else from the caches once synced, else from a direct listing.
     */
    public void beat() {
        try {
            ClusterSnapshot cluster = reconciledSnapshot.get().orElseGet(() -> caches.ready()
                    ? ClusterSnapshot.of(caches.nodes(), caches.pods())
                    : ClusterSnapshot.of(client.nodes().list().getItems(), objects.listPods()));
            var flavors = catalogue.read();
            CapacityReport report = CapacityCalculator.report(cluster, flavors, clock.instant(), AGENT_VERSION);
            autoscaling.addTo(report, flavors);
            writeLease(report);
            metrics.capacity(report);
            health.heartbeatSucceeded();
        } catch (KubernetesClientException e) {
            failed(e, switch (e.getCode()) {
                case HttpURLConnection.HTTP_NOT_FOUND -> "heartbeat failed: is namespace " + BerthCrds.SYSTEM_NAMESPACE
                        + " there? It comes with deploy/worker-agent/base; the agent does not create it";
                case HttpURLConnection.HTTP_FORBIDDEN -> "heartbeat failed: the agent's ServiceAccount lacks a permission;"
                        + " compare its Role and ClusterRole with deploy/worker-agent/base/rbac.yaml";
                default -> "heartbeat failed";
            });
        } catch (RuntimeException e) {
            failed(e, "heartbeat failed");
        }
    }

    private void failed(RuntimeException e, String message) {
        metrics.heartbeatFailed();
        health.heartbeatFailed();
        LOG.atWarn().addKeyValue("cluster", config.name()).addKeyValue("error", e.toString()).log(message);
    }

    private void writeLease(CapacityReport report) {
        Instant now = clock.instant();
        ZonedDateTime renewTime = now.truncatedTo(ChronoUnit.MICROS).atZone(ZoneOffset.UTC);
        Map<String, String> annotations = new LinkedHashMap<>();
        annotations.put(Annotations.AGENT_CAPACITY, client.getKubernetesSerialization().asJson(report));
        annotations.put(Annotations.AGENT_FENCING_EPOCH, Long.toString(fencing.highestAccepted()));
        var leases = client.leases().inNamespace(BerthCrds.SYSTEM_NAMESPACE);
        Lease existing = leases.withName(BerthCrds.AGENT_LEASE).get();
        if (existing == null) {
            leases.resource(new LeaseBuilder()
                    .withNewMetadata().withName(BerthCrds.AGENT_LEASE).withNamespace(BerthCrds.SYSTEM_NAMESPACE).withAnnotations(annotations).endMetadata()
                    .withNewSpec().withHolderIdentity(config.name()).withLeaseDurationSeconds(config.leaseDurationSeconds())
                    .withAcquireTime(renewTime).withRenewTime(renewTime).endSpec().build()).create();
            return;
        }
        Map<String, String> merged = new LinkedHashMap<>(Optional.ofNullable(existing.getMetadata().getAnnotations()).orElse(Map.of()));
        // Never lower the persisted mark, even if this process has not read it yet.
        epochOf(existing).ifPresent(fencing::accept);
        annotations.put(Annotations.AGENT_FENCING_EPOCH, Long.toString(fencing.highestAccepted()));
        merged.putAll(annotations);
        existing.getMetadata().setAnnotations(merged);
        if (!config.name().equals(existing.getSpec().getHolderIdentity())) existing.getSpec().setAcquireTime(renewTime);
        existing.getSpec().setHolderIdentity(config.name());
        existing.getSpec().setLeaseDurationSeconds(config.leaseDurationSeconds());
        existing.getSpec().setRenewTime(renewTime);
        leases.resource(existing).update();
    }
}
