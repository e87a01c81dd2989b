package dev.berth.manager.core;

import dev.berth.manager.model.Admission;
import java.util.List;

/**
 * A workload's status in Kueue's schema. admission is null until quota is reserved.
 * requeueCount counts evictions that sent the workload back to its queue.
 */
public record WorkloadStatus(List<Condition> conditions,
                             Admission admission,
                             List<AdmissionCheckState> admissionChecks,
                             int requeueCount) {
    public static final WorkloadStatus EMPTY = new WorkloadStatus(List.of(), null, List.of(), 0);

    public WorkloadStatus {
        conditions = List.copyOf(conditions);
        admissionChecks = List.copyOf(admissionChecks);
    }

    public Condition condition(String type) {
        for (Condition condition : conditions) {
            if (condition.type().equals(type)) return condition;
        }
        return null;
    }

    public boolean isTrue(String type) {
        Condition condition = condition(type);
        return condition != null && condition.status();
    }
}
