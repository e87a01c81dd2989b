package dev.berth.manager.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.core.WorkloadStatus;
import dev.berth.manager.dispatch.DispatchParts;
import dev.berth.manager.dispatch.DispatchStatus;
import dev.berth.protocol.Conditions;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A Workload's whole status as the parts that own it: the admission controller's part
 * ({@link WorkloadStatus}: conditions, admission, admissionChecks, requeueState,
 * accumulatedPastExecutionTimeSeconds), the dispatcher's part ({@link DispatchParts}: clusterName,
 * dispatch, dispatchHistory, dispatchHolds, and the topologyAssignment its dispatch block puts on the
 * admission's pod sets, see {@link TopologyAssignmentJson}), and whatever neither owns, which someone else wrote
 * through the API (an external dispatcher's {@code nominatedClusterNames}, a check controller's
 * {@code podSetUpdates}, Kueue fields Berth does not model) and which every write keeps.
 * <p>
 * Putting a part in replaces only that part's fields, in a copy of the current status. The wire
 * shape of each part is the one {@link StatusJson} and {@link DispatchStatusJson} write.
 */
public final class WorkloadStatusJson {
    /** The fields of the admission controller's part, in the order they are written. */
    public static final List<String> ADMISSION_FIELDS = List.of("conditions", "admission", "admissionChecks", "requeueState",
            "accumulatedPastExecutionTimeSeconds");
    /** The fields of the dispatcher's part, in the order they are written. */
    public static final List<String> DISPATCH_FIELDS = List.of(DispatchStatusJson.CLUSTER_NAME, DispatchStatusJson.DISPATCH,
            DispatchStatusJson.HISTORY, DispatchStatusJson.HOLDS);

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private WorkloadStatusJson() {}

    /**
     * The status with the admission controller's part replaced by {@code admission}, its conditions
     * stamped with the workload's metadata.generation. The dispatcher's fields and every field neither
     * part owns stay; a check's {@code podSetUpdates}, written by its controller, stays while the
     * check stays Ready (the admission controller does not model them).
     *
     * @param current  the stored status (missing or not an object: none)
     * @param workload the stored Workload, for its generation
     */
    public static ObjectNode withAdmission(JsonNode current, WorkloadStatus admission, JsonNode workload) {
        ObjectNode written = ObservedGeneration.stamp(StatusJson.workloadStatus(admission), workload);
        if (!current.isObject()) return written;
        keepPodSetUpdates(current, written);
        for (String field : DISPATCH_FIELDS) {
            if (current.has(field)) written.set(field, current.get(field).deepCopy());
        }
        for (Iterator<Map.Entry<String, JsonNode>> fields = current.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            if (!ADMISSION_FIELDS.contains(field.getKey()) && !written.has(field.getKey())) {
                written.set(field.getKey(), field.getValue().deepCopy());
            }
        }
        DispatchStatus dispatch = DispatchStatusJson.dispatchOf(written);
        TopologyAssignmentJson.project(written, dispatch == null ? List.of() : dispatch.topologyAssignments());
        return written;
    }

    /** The dispatcher's part of a status; {@link DispatchParts#NONE} when it has none. */
    public static DispatchParts dispatchPartsOf(JsonNode status) {
        JsonNode clusterName = status.path(DispatchStatusJson.CLUSTER_NAME);
        return new DispatchParts(clusterName.isTextual() ? clusterName.textValue() : null, DispatchStatusJson.dispatchOf(status),
                DispatchStatusJson.historyOf(status), DispatchStatusJson.holdsOf(status));
    }

    /**
     * The status with the dispatcher's part changed from {@code before} (read from {@code current}) to
     * {@code after}. Only the fields whose value changed are written; the others stay as stored, byte
     * for byte, with any field a newer manager added. A null or empty value removes its field.
     */
    public static ObjectNode withDispatch(JsonNode current, DispatchParts before, DispatchParts after) {
        ObjectNode written = current.isObject() ? ((ObjectNode) current).deepCopy() : JSON.objectNode();
        if (!Objects.equals(before.clusterName(), after.clusterName())) {
            put(written, DispatchStatusJson.CLUSTER_NAME, after.clusterName() == null ? null : JSON.textNode(after.clusterName()));
        }
        if (!Objects.equals(before.dispatch(), after.dispatch())) {
            put(written, DispatchStatusJson.DISPATCH, after.dispatch() == null ? null : DispatchStatusJson.encode(after.dispatch()));
            // the admission shows where the current attempt's agent put the pods (Kueue's topologyAssignment)
            TopologyAssignmentJson.project(written, after.dispatch() == null ? List.of() : after.dispatch().topologyAssignments());
        }
        if (!before.history().equals(after.history())) {
            put(written, DispatchStatusJson.HISTORY, after.history().isEmpty() ? null : DispatchStatusJson.encodeHistory(after.history()));
        }
        if (!before.holds().equals(after.holds())) {
            put(written, DispatchStatusJson.HOLDS, after.holds().isEmpty() ? null : DispatchStatusJson.encodeHolds(after.holds()));
        }
        return written;
    }

    private static void put(ObjectNode status, String field, JsonNode valueOrNull) {
        if (valueOrNull == null) status.remove(field);
        else status.set(field, valueOrNull);
    }

    private static void keepPodSetUpdates(JsonNode before, ObjectNode written) {
        for (JsonNode old : before.path("admissionChecks")) {
            if (!old.has("podSetUpdates")) continue;
            for (JsonNode now : written.path("admissionChecks")) {
                if (now.path("name").equals(old.path("name")) && Conditions.CheckStates.READY.equals(now.path("state").asText())
                        && now instanceof ObjectNode check) {
                    check.set("podSetUpdates", old.get("podSetUpdates").deepCopy());
                }
            }
        }
    }
}
