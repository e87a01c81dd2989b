package dev.berth.manager.controller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.core.WorkloadStatus;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.objects.PodSetEquivalence;
import dev.berth.manager.objects.WorkloadDecoder;
import dev.berth.manager.store.StoredObject;
import dev.berth.protocol.Conditions;
import java.util.Optional;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A batch job changed while its Workload waits (a new parallelism, new scheduling directives on a suspended job):
 * the Workload is replaced by one derived from the job as it is now, and queues again, as Kueue's job reconciler
 * replaces a Workload that is no longer equivalent to its job; a new queue-name label moves the Workload to that
 * queue. A Workload that holds quota or has finished is left
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
        if (current.isEmpty() || holdsQuotaOrFinished(current.get().object())) return;
        if (PodSetEquivalence.same(current.get().object(), wanted)) {
            followQueue(current.get(), wanted.path("spec").path("queueName").asText(""));
            return;
        }
        log.atInfo().addKeyValue("workload", current.get().key().namespace() + "/" + current.get().key().name())
                .addKeyValue("owner", job.key().namespace() + "/" + job.key().name())
                .addKeyValue("counts", OwnedWorkloads.counts(wanted).toString())
                .log("the waiting job changed: its Workload is derived again and queued");
        OwnedWorkloads.delete(state, current.get());
        create.accept(job, wanted);
    }

    /**
     * Kueue's job reconciler: a suspended job whose queue-name label changed moves its waiting Workload to that queue,
     * keeping its creation time (its place in a FIFO queue).
     */
    private void followQueue(StoredObject workload, String queueName) {
        if (queueName.isEmpty() || queueName.equals(workload.object().path("spec").path("queueName").asText(""))) return;
        ObjectNode moved = workload.object().deepCopy();
        ((ObjectNode) moved.get("spec")).put("queueName", queueName);
        StoredObject written = state.store.replace(workload.key(), moved, null);
        ObjectNode stored = written.readOnlyObject();
        // out of the old queue and into the new one; the request keeps the creation time, so the place in a FIFO queue
        state.controller.delete(WorkloadKey.of(workload.key().namespace(), workload.key().name()));
        state.controller.submit(WorkloadDecoder.request(stored, state.jobIntegration.resources()), WorkloadDecoder.active(stored), WorkloadStatus.EMPTY);
        state.reschedule();
        log.atInfo().addKeyValue("workload", workload.key().namespace() + "/" + workload.key().name())
                .addKeyValue("queue", queueName).log("the waiting job changed queues: its Workload moved with it");
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
