package dev.berth.manager.api;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.objects.FieldCause;

/** Renders an {@link ApiException} as a metav1 Status object. */
public final class StatusBody {
    private StatusBody() {}

    public static ObjectNode of(ApiException e) {
        ObjectNode status = JsonNodeFactory.instance.objectNode();
        status.put("kind", "Status");
        status.put("apiVersion", "v1");
        ObjectNode metadata = status.putObject("metadata");
        if (e instanceof ExpiredListException expired) metadata.put("continue", expired.inconsistentContinue());
        status.put("status", "Failure");
        status.put("message", e.getMessage());
        status.put("reason", e.reason());
        if (e.name() != null || e.kind() != null || !e.causes().isEmpty()) {
            ObjectNode details = status.putObject("details");
            if (e.name() != null) details.put("name", e.name());
            if (e.group() != null) details.put("group", e.group());
            if (e.kind() != null) details.put("kind", e.kind());
            if (!e.causes().isEmpty()) {
                var causes = details.putArray("causes");
                for (FieldCause cause : e.causes()) {
                    causes.addObject().put("reason", cause.type()).put("message", cause.message()).put("field", cause.field());
                }
            }
        }
        status.put("code", e.code());
        return status;
    }
}
