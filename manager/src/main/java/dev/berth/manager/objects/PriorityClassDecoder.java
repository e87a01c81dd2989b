package dev.berth.manager.objects;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.protocol.KueueApi;

import java.util.ArrayList;
import java.util.List;

/** Decodes Kueue's WorkloadPriorityClass and Kubernetes' scheduling.k8s.io/v1 PriorityClass. */
public final class PriorityClassDecoder {
    /** Kubernetes reserves values above this for system priority classes. */
    public static final int HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000;
    static final String ABOVE_USER_RANGE =
            "maximum allowed value of a user defined priority is " + HIGHEST_USER_DEFINABLE_PRIORITY;

    private PriorityClassDecoder() {}

    /** kueue.x-k8s.io WorkloadPriorityClass: top-level {@code value} (required) and {@code description}. */
    public static PriorityClassInfo decodeWorkloadPriorityClass(ObjectNode object) {
        List<FieldCause> causes = new ArrayList<>();
        FieldReader root = FieldReader.root(object, causes);
        String name = ObjectNames.readName(root);
        Integer value = value(root);
        root.field("description").text();
        root.throwIfInvalid(KueueApi.WORKLOAD_PRIORITY_CLASS, name);
        return new PriorityClassInfo(name, value, false);
    }

    /** scheduling.k8s.io/v1 PriorityClass: top-level {@code value} (required) and {@code globalDefault}. */
    public static PriorityClassInfo decodePriorityClass(ObjectNode object) {
        List<FieldCause> causes = new ArrayList<>();
        FieldReader root = FieldReader.root(object, causes);
        String name = ObjectNames.readName(root);
        Integer value = value(root);
        Boolean globalDefault = root.field("globalDefault").bool();
        root.field("description").text();
        root.throwIfInvalid(KueueApi.PRIORITY_CLASS, name);
        return new PriorityClassInfo(name, value, Boolean.TRUE.equals(globalDefault));
    }

    private static Integer value(FieldReader root) {
        FieldReader field = root.field("value");
        if (field.isAbsent()) {
            field.required();
            return null;
        }
        if (field.node().isIntegralNumber() && !field.node().canConvertToInt()) {
            field.invalid(ABOVE_USER_RANGE);
            return null;
        }
        Integer value = field.int32();
        if (value != null && value > HIGHEST_USER_DEFINABLE_PRIORITY) field.invalid(ABOVE_USER_RANGE);
        return value;
    }
}
