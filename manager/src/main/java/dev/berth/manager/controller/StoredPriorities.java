package dev.berth.manager.controller;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.objects.PriorityClassDecoder;
import dev.berth.manager.objects.PriorityClassInfo;
import dev.berth.manager.objects.PriorityResolver;
import dev.berth.manager.store.StoredObject;

/** Resolves priority class names against the stored WorkloadPriorityClasses and PriorityClasses. */
final class StoredPriorities implements PriorityResolver {
    private final ManagerState state;

    StoredPriorities(ManagerState state) {
        this.state = state;
    }

    @Override
    public Integer workloadPriorityClass(String name) {
        return state.look(Resources.WORKLOAD_PRIORITY_CLASSES.resource(), "", name)
                .map(o -> PriorityClassDecoder.decodeWorkloadPriorityClass(o).value()).orElse(null);
    }

    @Override
    public Integer priorityClass(String name) {
        return state.look(Resources.PRIORITY_CLASSES.resource(), "", name)
                .map(o -> PriorityClassDecoder.decodePriorityClass(o).value()).orElse(null);
    }

    @Override
    public PriorityClassInfo defaultPriorityClass() {
        for (StoredObject stored : state.store.list(Resources.PRIORITY_CLASSES.resource(), null)) {
            ObjectNode object = stored.readOnlyObject();
            PriorityClassInfo info = PriorityClassDecoder.decodePriorityClass(object);
            if (info.globalDefault()) return info;
        }
        return null;
    }

    /** Every stored WorkloadPriorityClass with its value, by name. */
    java.util.Map<String, Integer> workloadPriorityClasses() {
        java.util.Map<String, Integer> classes = new java.util.TreeMap<>();
        for (StoredObject stored : state.store.list(Resources.WORKLOAD_PRIORITY_CLASSES.resource(), null)) {
            ObjectNode object = stored.readOnlyObject();
            classes.put(object.path("metadata").path("name").asText(), PriorityClassDecoder.decodeWorkloadPriorityClass(object).value());
        }
        return classes;
    }
}
