package dev.berth.manager.clusters;

import dev.berth.protocol.Annotations;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;

/** The highest fencing epoch an agent accepted, as it publishes it on its heartbeat Lease. */
final class AgentEpoch {
    private AgentEpoch() {}

    /** The published epoch; 0 when there is no Lease, no annotation, or an unreadable one (0 proves nothing). */
    static long of(Lease lease) {
        if (lease == null || lease.getMetadata() == null || lease.getMetadata().getAnnotations() == null) return 0;
        String value = lease.getMetadata().getAnnotations().get(Annotations.AGENT_FENCING_EPOCH);
        if (value == null) return 0;
        try {
            return Math.max(0, Long.parseLong(value.strip()));
        } catch (NumberFormatException unreadable) {
            return 0;
        }
    }
}
