package dev.berth.manager.controller;

import dev.berth.manager.core.WorkloadStatus;
import dev.berth.manager.dispatch.CurrentAttempts;
import dev.berth.manager.dispatch.DispatchAttempt;
import dev.berth.manager.dispatch.DispatchStatus;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.objects.DispatchStatusJson;
import dev.berth.manager.store.StoredObject;
import dev.berth.protocol.Conditions;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the dispatcher reads back from the stored Workloads: at a restart, the current attempts (from
 * status.dispatch) and the fences holding workloads back (from status.dispatchHolds); at a resync, every
 * workload that holds quota. State thread only.
 */
final class StoredAttempts {
    private static final Logger log = LoggerFactory.getLogger(StoredAttempts.class);

    private final ManagerState state;
    private final Clock clock;
    private final Duration defaultLease;

    StoredAttempts(ManagerState state, Clock clock, Duration defaultLease) {
        this.state = state;
        this.clock = clock;
        this.defaultLease = defaultLease;
    }

    /**
     * Puts every stored workload's current attempt into {@code attempts} and its holds into {@code fences};
     * returns every stored workload, each to be looked at once the clusters are connected. From a listing already read (the one {@link StateRecovery} rebuilt the controller from). A finished
     * workload is left out: it holds no quota and is never placed again, so it gets no attempt to renew or delete;
     * a copy of it still listed on a cluster is deleted there as stale ({@link AttemptListings}), as before.
     */
    List<WorkloadKey> recover(List<StoredObject> workloads, CurrentAttempts attempts, OldAttemptFences fences) {
        List<WorkloadKey> all = new ArrayList<>();
        int finished = 0;
        for (StoredObject stored : workloads) {
            WorkloadKey key = WorkloadKey.of(stored.key().namespace(), stored.key().name());
            WorkloadStatus recovered = state.controller.statusOf(key);
            if (recovered != null && recovered.isTrue(Conditions.FINISHED)) {
                finished++;
                continue;
            }
            all.add(key);
            DispatchHolds.read(stored.object()).forEach(fence -> fences.restore(key, fence));
            DispatchStatus dispatch = DispatchStatusJson.dispatchOf(stored.object().path("status"));
            if (dispatch == null) continue;
            String cluster = Objects.requireNonNullElse(dispatch.cluster(), "");
            DispatchAttempt attempt = DispatchAttempt.recovered(dispatch.attemptId(), cluster, dispatch.reported(),
                    Math.max(1, DispatchHistory.count(stored.object())), WorkloadLease.of(stored.object(), state, defaultLease), clock.instant());
            attempts.begin(key, attempt);
        }
        log.atInfo().addKeyValue("workloads", all.size()).addKeyValue("attempts", attempts.size()).addKeyValue("finishedLeftOut", finished)
                .log("dispatch state recovered from the stored workloads");
        return all;
    }

    /** The current attempts' workloads and every workload that holds quota: a resync looks at each, to repair a missed event. */
    List<WorkloadKey> holdingQuota(Collection<WorkloadKey> current) {
        Set<WorkloadKey> keys = new LinkedHashSet<>(current);
        try {
            for (StoredObject stored : state.store.list(Resources.WORKLOADS.resource(), null)) {
                WorkloadKey key = WorkloadKey.of(stored.key().namespace(), stored.key().name());
                WorkloadStatus status = state.controller.statusOf(key);
                if (status != null && status.isTrue(Conditions.QUOTA_RESERVED)) keys.add(key);
            }
        } catch (RuntimeException e) {
            log.atWarn().setCause(e).log("dispatch resync could not list the workloads; only current attempts are looked at");
        }
        return new ArrayList<>(keys);
    }
}
