package dev.berth.manager.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.objects.FieldCause;
import dev.berth.manager.objects.InvalidObjectException;
import dev.berth.manager.store.StoredObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Two kinds for testing the generic layer: a cluster-scoped Widget and a namespaced Gadget with status. */
final class TestKinds {
    static final String GROUP = "test.berth.dev";
    static final ResourceType WIDGET = new ResourceType(GROUP, "v1", "widgets", "widget", "Widget", false, List.of("wd"), false);
    static final ResourceType GADGET = new ResourceType(GROUP, "v1", "gadgets", "gadget", "Gadget", true, List.of(), true);

    /** Widget hooks: spec.forbidden is refused, spec.old draws a warning; every event is recorded. */
    static final class WidgetHooks implements ObjectHooks {
        final List<String> events = new ArrayList<>();
        final List<String> threads = new ArrayList<>();

        @Override
        public ObjectNode admit(ObjectNode incoming, Optional<StoredObject> existing, Operation op) {
            if (incoming.path("spec").has("explode")) throw new IllegalStateException("secret internals");
            if (incoming.path("spec").has("forbidden")) {
                throw InvalidObjectException.invalid("Widget", incoming.path("metadata").path("name").asText(),
                        List.of(FieldCause.invalid("spec.forbidden", "must not be set")));
            }
            return incoming;
        }

        @Override
        public List<String> warnings(ObjectNode admitted, Optional<StoredObject> existing, Operation op) {
            return admitted.path("spec").has("old") ? List.of("spec.old is deprecated; use \"spec.new\"") : List.of();
        }

        @Override
        public void stored(StoredObject object) {
            events.add("stored " + object.key().name() + "@" + object.resourceVersion());
            threads.add(Thread.currentThread().getName());
        }

        @Override
        public void deleted(StoredObject object) {
            events.add("deleted " + object.key().name());
        }
    }

    /** Gadget hooks: a status with a negative count is refused. */
    static final class GadgetHooks implements ObjectHooks {
        @Override
        public ObjectNode admitStatus(ObjectNode status, StoredObject existing) {
            if (status.path("count").asInt() < 0) {
                throw InvalidObjectException.invalid("Gadget", existing.key().name(),
                        List.of(FieldCause.invalid("status.count", "must be non-negative")));
            }
            return status;
        }
    }

    static ResourceRegistry registry(WidgetHooks widgetHooks) {
        return ResourceRegistry.builder()
                .add(WIDGET, widgetHooks, "v1alpha1")
                .add(GADGET, new GadgetHooks())
                .build();
    }

    private TestKinds() {}
}
