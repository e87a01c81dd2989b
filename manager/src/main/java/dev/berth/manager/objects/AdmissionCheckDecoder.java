package dev.berth.manager.objects;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.protocol.KueueApi;

import java.util.ArrayList;
import java.util.List;

/** Decodes an AdmissionCheck: metadata.name and spec.controllerName (required). */
public final class AdmissionCheckDecoder {
    private AdmissionCheckDecoder() {}

    public static AdmissionCheckInfo decode(ObjectNode object) {
        List<FieldCause> causes = new ArrayList<>();
        FieldReader root = FieldReader.root(object, causes);
        String name = ObjectNames.readName(root);
        String controllerName = root.field("spec").object().field("controllerName").requiredText();
        root.throwIfInvalid(KueueApi.ADMISSION_CHECK, name);
        return new AdmissionCheckInfo(name, controllerName);
    }
}
