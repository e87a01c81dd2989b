package dev.berth.manager.controller;

import dev.berth.manager.clusters.ClusterEvents;
import dev.berth.manager.dispatch.HealthAssessment;
import dev.berth.protocol.crd.RemoteWorkload;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * The edge from the worker clusters (and the MultiKueueCluster hooks' operator marks) to the dispatcher, closed
 * once by the root. The worker clusters are built before the dispatcher, which sends its calls through them, so
 * they hold this link; {@link BerthManager} registers the dispatcher on it right after building it. Events before
 * then (none are expected: clusters connect only when dispatch starts) are dropped. State thread only.
 */
final class ClusterEventsLink implements ClusterEvents {
    private static final ClusterEvents NONE = new ClusterEvents() {
        @Override
        public void connectionChanged(String cluster, boolean connected, String message) {
        }

        @Override
        public void capacityChanged(String cluster) {
        }

        @Override
        public void attemptsListed(String cluster, List<RemoteWorkload> attempts) {
        }
    };
    private ClusterEvents dispatcher = NONE;

    /** Connects the dispatcher; once only. */
    void register(ClusterEvents events) {
        if (dispatcher != NONE) throw new IllegalStateException("cluster events are registered already");
        dispatcher = Objects.requireNonNull(events);
    }

    @Override
    public void connectionChanged(String cluster, boolean connected, String message) {
        dispatcher.connectionChanged(cluster, connected, message);
    }

    @Override
    public void capacityChanged(String cluster) {
        dispatcher.capacityChanged(cluster);
    }

    @Override
    public void agentEpochBeforeListing(String cluster, long agentEpoch, Instant readAt, Instant listingStartedAt) {
        dispatcher.agentEpochBeforeListing(cluster, agentEpoch, readAt, listingStartedAt);
    }

    @Override
    public void finishedCopiesSeen(String cluster, List<RemoteWorkload> finished) {
        dispatcher.finishedCopiesSeen(cluster, finished);
    }

    @Override
    public void attemptsListed(String cluster, List<RemoteWorkload> attempts) {
        dispatcher.attemptsListed(cluster, attempts);
    }

    @Override
    public void healthChanged(String cluster, HealthAssessment health, Instant lostSince) {
        dispatcher.healthChanged(cluster, health, lostSince);
    }

    @Override
    public void operatorMarksChanged(String cluster, boolean cordoned, boolean draining, boolean wasCordoned, boolean wasDraining) {
        dispatcher.operatorMarksChanged(cluster, cordoned, draining, wasCordoned, wasDraining);
    }
}
