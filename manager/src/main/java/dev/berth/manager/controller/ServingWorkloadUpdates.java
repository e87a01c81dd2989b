package dev.berth.manager.controller;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.objects.ServingScale;
import dev.berth.manager.objects.ServingWorkloads;
import dev.berth.manager.store.StoredObject;
import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a serving object's one Workload in step with its {@code spec.replicas} after each write, as
 * {@link ServingScale} decides: none at zero, a new one when scaled up from zero, a replacement (queued and
 * admitted again) when the pod counts changed. A Workload that goes is deleted as a Job's is when the Job
 * goes: the worker's copy is stopped before its quota is released.
 */
final class ServingWorkloadUpdates {
    private static final Logger log = LoggerFactory.getLogger(ServingWorkloadUpdates.class);

    private final ManagerState state;

    ServingWorkloadUpdates(ManagerState state) {
        this.state = state;
    }

    void reconcile(StoredObject object, ObjectNode wanted, BiConsumer<StoredObject, ObjectNode> create) {
        Optional<StoredObject> current = OwnedWorkloads.current(state, object);
        ServingScale.Action action = ServingScale.decide(ServingWorkloads.replicas(object.object()), current.isPresent(),
                current.map(w -> OwnedWorkloads.counts(w.object())).orElse(List.of()), OwnedWorkloads.counts(wanted));
        if (action == ServingScale.Action.NONE) return;
        log.atInfo().addKeyValue("workload", current.map(w -> w.key().namespace() + "/" + w.key().name()).orElse(""))
                .addKeyValue("owner", object.key().namespace() + "/" + object.key().name())
                .addKeyValue("action", action).log("serving object rescaled");
        if (action == ServingScale.Action.RELEASE || action == ServingScale.Action.READMIT) OwnedWorkloads.delete(state, current.get());
        if (action == ServingScale.Action.ADMIT || action == ServingScale.Action.READMIT) create.accept(object, wanted);
    }
}
