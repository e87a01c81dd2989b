package dev.berth.manager.clusters;

import dev.berth.manager.dispatch.HealthAssessment;
import dev.berth.protocol.crd.RemoteWorkload;
import java.time.Instant;
import java.util.List;

/** What {@link WorkerClusters} tells the manager; always called on the state thread. */
public interface ClusterEvents {
    /** The cluster became reachable or unreachable; message says why (never kubeconfig content). */
    void connectionChanged(String cluster, boolean connected, String message);

    /** A fresh heartbeat or capacity report arrived. */
    void capacityChanged(String cluster);

    /**
     * The highest fencing epoch the cluster's agent accepted (its heartbeat Lease; 0 when it publishes none),
     * read at readAt, just before the listing of attempts that started at listingStartedAt and is reported next.
     */
    default void agentEpochBeforeListing(String cluster, long agentEpoch, Instant readAt, Instant listingStartedAt) {
    }

    /**
     * Copies the cluster reported finished (Succeeded or Failed), heard before anything else about the cluster: from
     * a listing, right before that listing's connection, heartbeat and {@link #attemptsListed} events, and, when a new
     * leader adopts a warm standby's client, from the standby's last listing, before its own first listing answers.
     * A finished report is final, so its quota can be released at once; the listing that follows is still reported
     * whole through {@link #attemptsListed}.
     */
    default void finishedCopiesSeen(String cluster, List<RemoteWorkload> finished) {
    }

    /** The attempts this manager has on the cluster, as just listed. */
    void attemptsListed(String cluster, List<RemoteWorkload> attempts);

    /** The cluster's health changed; lostSince is set while it is lost (Unreachable or AgentLost). */
    default void healthChanged(String cluster, HealthAssessment health, Instant lostSince) {
    }

    /**
     * The operator changed the cluster's marks (berth.dev/cordon, berth.dev/drain on its MultiKueueCluster); called by
     * the MultiKueueCluster hooks after {@link ClusterConnections#setOperatorMarks}, only when a mark changed.
     */
    default void operatorMarksChanged(String cluster, boolean cordoned, boolean draining, boolean wasCordoned, boolean wasDraining) {
    }
}
