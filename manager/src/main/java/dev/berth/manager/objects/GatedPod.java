package dev.berth.manager.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.protocol.KueueApi;
import dev.berth.protocol.Labels;
import java.util.Iterator;

/**
 * A pod as the API server and Kueue's pod webhook leave it on create: a queued pod gets Kueue's
 * admission scheduling gate and the managed label; every pod starts Pending, with
 * PodScheduled=False/SchedulingGated while it has gates (kube-apiserver's pod strategy). The copy
 * sent to a worker drops the gate, which the manager's pod keeps, as MultiKueue keeps the
 * management cluster's pods gated. Pure JSON.
 */
public final class GatedPod {
    private static final String ADMISSION_GATE = KueueApi.ADMISSION_GATE;

    private GatedPod() {}

    /** A queued pod: the gate (once) and the managed label. */
    public static void gate(ObjectNode pod) {
        ArrayNode gates = pod.with("spec").withArray("schedulingGates");
        for (JsonNode gate : gates) {
            if (ADMISSION_GATE.equals(gate.path("name").asText())) return;
        }
        gates.addObject().put("name", ADMISSION_GATE);
        pod.with("metadata").with("labels").put(Labels.MANAGED, "true");
    }

    /** The status every new pod starts with. */
    public static void initialStatus(ObjectNode pod) {
        ObjectNode status = pod.putObject("status");
        status.put("phase", "Pending");
        if (!pod.path("spec").path("schedulingGates").isEmpty()) {
            status.putArray("conditions").addObject().put("type", "PodScheduled").put("status", "False")
                    .put("reason", "SchedulingGated").put("message", "Scheduling is blocked due to non-empty scheduling gates");
        }
    }

    /** The copy for a worker: without Kueue's gate (and without the gate list if that was the only one). */
    public static void ungated(ObjectNode pod) {
        JsonNode gates = pod.path("spec").path("schedulingGates");
        if (!gates.isArray()) return;
        for (Iterator<JsonNode> it = gates.iterator(); it.hasNext(); ) {
            if (ADMISSION_GATE.equals(it.next().path("name").asText())) it.remove();
        }
        if (gates.isEmpty()) ((ObjectNode) pod.get("spec")).remove("schedulingGates");
    }
}
