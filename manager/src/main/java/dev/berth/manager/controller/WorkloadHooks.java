package dev.berth.manager.controller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.api.ObjectHooks;
import dev.berth.manager.core.AdmissionCheckBackoff;
import dev.berth.manager.core.AdmissionCheckState;
import dev.berth.manager.core.Condition;
import dev.berth.manager.core.WorkloadStatus;
import dev.berth.manager.model.WorkloadKey;
import dev.berth.manager.objects.ApiVersionConverter;
import dev.berth.manager.objects.StatusJson;
import dev.berth.manager.objects.WorkloadDecoder;
import dev.berth.manager.objects.WorkloadFactory;
import dev.berth.manager.store.StoredObject;
import dev.berth.protocol.Conditions;
import java.util.List;
import java.util.Optional;

/**
 * Workloads: validated and priority-resolved on admit, queued once stored. Status writes from
 * clients are how external admission checks report their state and how a workload is marked
 * Finished until dispatch reports it.
 */
final class WorkloadHooks implements ObjectHooks {
    private final ManagerState state;
    private final StoredPriorities priorities;
    private List<String> lastWarnings = List.of();

    WorkloadHooks(ManagerState state, StoredPriorities priorities) {
        this.state = state;
        this.priorities = priorities;
    }

    @Override
    public ObjectNode admit(ObjectNode incoming, Optional<StoredObject> existing, Operation op) {
        lastWarnings = ApiVersionConverter.toV1beta2(incoming);
        ObjectNode normalized = WorkloadFactory.normalizeWorkload(incoming, priorities);
        WorkloadDecoder.request(normalized, state.jobIntegration.resources());
        return normalized;
    }

    @Override
    public List<String> warnings(ObjectNode admitted, Optional<StoredObject> existing, Operation op) {
        return lastWarnings;
    }

    @Override
    public void stored(StoredObject object) {
        ObjectNode workload = object.object();
        WorkloadKey key = WorkloadKey.of(object.key().namespace(), object.key().name());
        boolean active = WorkloadDecoder.active(workload);
        if (state.controller.statusOf(key) == null) {
            state.controller.submit(WorkloadDecoder.request(workload, state.jobIntegration.resources()), active, WorkloadStatus.EMPTY);
        } else {
            state.controller.setActive(key, active);
        }
        state.reschedule();
    }

    @Override
    public void deleted(StoredObject object) {
        state.controller.delete(WorkloadKey.of(object.key().namespace(), object.key().name()));
        state.reschedule();
    }

    @Override
    public ObjectNode admitStatus(ObjectNode status, StoredObject existing) {
        StatusJson.parseWorkloadStatus(status);
        return status;
    }

    @Override
    public void statusStored(StoredObject object) {
        WorkloadKey key = WorkloadKey.of(object.key().namespace(), object.key().name());
        WorkloadStatus current = state.controller.statusOf(key);
        JsonNode stored = object.readOnlyObject().path("status"); // only read: parsed into a WorkloadStatus
        ObjectNode statusNode = stored instanceof ObjectNode status ? status : null;
        if (current == null || statusNode == null) return;
        WorkloadStatus written = StatusJson.parseWorkloadStatus(statusNode);
        for (AdmissionCheckState check : written.admissionChecks()) {
            AdmissionCheckState before = findCheck(current, check.name());
            if (before == null || !before.state().equals(check.state())) {
                state.controller.setAdmissionCheckState(key, check.name(), check.state(), check.message(), requeueAfter(check, before));
            }
        }
        Condition finished = written.condition(Conditions.FINISHED);
        if (finished != null && finished.status() && !current.isTrue(Conditions.FINISHED)) {
            boolean succeeded = !Conditions.Reasons.FAILED.equals(finished.reason());
            state.controller.finish(key, succeeded, finished.reason(), finished.message());
        }
        state.reschedule();
    }

    /**
     * How long a Retry from a check's controller keeps the workload out of its queue: the
     * requeueAfterSeconds it wrote, else Kueue's ProvisioningRequest default backoff for the retry's number.
     */
    private static Integer requeueAfter(AdmissionCheckState written, AdmissionCheckState before) {
        if (!Conditions.CheckStates.RETRY.equals(written.state())) return null;
        if (written.requeueAfterSeconds() != null) return written.requeueAfterSeconds();
        int retries = before == null ? 0 : before.retryCount();
        return AdmissionCheckBackoff.requeueAfterSeconds(retries + 1);
    }

    private static AdmissionCheckState findCheck(WorkloadStatus status, String name) {
        for (AdmissionCheckState check : status.admissionChecks()) {
            if (check.name().equals(name)) return check;
        }
        return null;
    }
}
