package dev.berth.manager.controller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.objects.PodSetEquivalence;
import dev.berth.manager.store.StoredObject;
import dev.berth.protocol.Conditions;
import java.util.Optional;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A batch job changed while its Workload waits (a new parallelism, new scheduling directives on a suspended job):
 * the Workload is replaced by one derived from the job as it is now, and queues again, as Kueue's job reconciler
 * replaces a Workload that is no longer equivalent to its job. A Workload that holds quota or has finished is left
 * as it is; what a worker runs is capped at what was admitted ({@link AdmittedTemplate}).
 */
final class QueuedJobUpdates {
    private static final Logger log = LoggerFactory.getLogger(QueuedJobUpdates.class);

    private final ManagerState state;

    QueuedJobUpdates(ManagerState state) {
        this.state = state;
    }

    void reconcile(StoredObject job, ObjectNode wanted, BiConsumer<StoredObject, ObjectNode> create) {
        Optional<StoredObject> current = OwnedWorkloads.current(state, job);
        if (current.isEmpty() || holdsQuotaOrFinished(current.get().object()) || PodSetEquivalence.same(current.get().object(), wanted)) return;
        log.atInfo().addKeyValue("workload", current.get().key().namespace() + "/" + current.get().key().name())
                .addKeyValue("owner", job.key().namespace() + "/" + job.key().name())
                .addKeyValue("counts", OwnedWorkloads.counts(wanted).toString())
                .log("the waiting job changed: its Workload is derived again and queued");
        OwnedWorkloads.delete(state, current.get());
        create.accept(job, wanted);
    }

    private static boolean holdsQuotaOrFinished(JsonNode workload) {
        for (JsonNode condition : workload.path("status").path("conditions")) {
            String type = condition.path("type").asText();
            boolean relevant = type.equals(Conditions.QUOTA_RESERVED) || type.equals(Conditions.ADMITTED) || type.equals(Conditions.FINISHED);
            if (relevant && "True".equals(condition.path("status").asText())) return true;
        }
        return false;
    }
}
