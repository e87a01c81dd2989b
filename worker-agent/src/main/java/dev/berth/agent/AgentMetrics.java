package dev.berth.agent;

import dev.berth.protocol.crd.CapacityReport;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The agent's Prometheus metrics. Names as scraped: berth_agent_attempts{phase},
 * berth_agent_admissions_total, berth_agent_rejections_total{reason}, berth_agent_lease_expiries_total,
 * berth_agent_free_capacity{flavor,resource}, berth_agent_heartbeat_failures_total.
 */
public final class AgentMetrics {
    public static final String ATTEMPTS = "berth.agent.attempts";
    public static final String ADMISSIONS = "berth.agent.admissions";
    public static final String REJECTIONS = "berth.agent.rejections";
    public static final String LEASE_EXPIRIES = "berth.agent.lease.expiries";
    public static final String FREE_CAPACITY = "berth.agent.free.capacity";
    public static final String HEARTBEAT_FAILURES = "berth.agent.heartbeat.failures";

    private final PrometheusMeterRegistry registry;
    private final Map<String, AtomicLong> attemptsByPhase = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> freeCapacity = new ConcurrentHashMap<>();
    private final Counter admissions;
    private final Counter leaseExpiries;
    private final Counter heartbeatFailures;

    public AgentMetrics(String cluster) {
        registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        registry.config().commonTags("cluster", cluster);
        admissions = Counter.builder(ADMISSIONS).description("Attempts admitted and created").register(registry);
        leaseExpiries = Counter.builder(LEASE_EXPIRIES).description("Attempts stopped because their lease expired").register(registry);
        heartbeatFailures = Counter.builder(HEARTBEAT_FAILURES).description("Heartbeats that could not be written").register(registry);
    }

    public void admitted() {
        admissions.increment();
    }

    public void rejected(String reason) {
        Counter.builder(REJECTIONS).description("Attempts rejected").tag("reason", reason).register(registry).increment();
    }

    public void leaseExpired() {
        leaseExpiries.increment();
    }

    public void heartbeatFailed() {
        heartbeatFailures.increment();
    }

    /** Sets the number of attempts per phase; phases not given drop to zero. */
    public void attempts(Map<String, Long> countsByPhase) {
        attemptsByPhase.forEach((phase, gauge) -> gauge.set(countsByPhase.getOrDefault(phase, 0L)));
        countsByPhase.forEach((phase, count) -> attemptsByPhase.computeIfAbsent(phase, p -> {
            AtomicLong gauge = new AtomicLong();
            Gauge.builder(ATTEMPTS, gauge, AtomicLong::get).description("Attempts on this cluster by phase").tag("phase", p).register(registry);
            return gauge;
        }).set(count));
    }

    /** Publishes the free amount per flavor and resource from a capacity report (canonical units: millicores, bytes). */
    public void capacity(CapacityReport report) {
        for (CapacityReport.FlavorCapacity flavor : report.getFlavors()) {
            flavor.getFree().forEach((resource, quantity) -> freeCapacity.computeIfAbsent(flavor.getName() + "\u0000" + resource, k -> {
                AtomicLong gauge = new AtomicLong();
                Gauge.builder(FREE_CAPACITY, gauge, AtomicLong::get).description("Free capacity on nodes of a flavor")
                        .tag("flavor", flavor.getName()).tag("resource", resource).register(registry);
                return gauge;
            }).set(ResourceAmount.parse(resource, quantity)));
        }
    }

    /** The Prometheus text exposition. */
    public String scrape() {
        return registry.scrape();
    }

    public PrometheusMeterRegistry registry() {
        return registry;
    }
}
