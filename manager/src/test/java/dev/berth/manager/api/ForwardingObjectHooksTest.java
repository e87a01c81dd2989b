package dev.berth.manager.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.store.ObjectKey;
import dev.berth.manager.store.StoredObject;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The base of every hooks decorator passes every call on, so a hook method added later is never lost in one of them. */
class ForwardingObjectHooksTest {

    @Test
    void everyHookMethodIsForwarded() {
        List<String> notForwarded = new ArrayList<>();
        for (Method hook : ObjectHooks.class.getMethods()) {
            if (Modifier.isStatic(hook.getModifiers())) continue;
            try {
                ForwardingObjectHooks.class.getDeclaredMethod(hook.getName(), hook.getParameterTypes());
            } catch (NoSuchMethodException missing) {
                notForwarded.add(hook.getName() + Arrays.toString(hook.getParameterTypes()));
            }
        }
        assertThat(notForwarded).as("ObjectHooks methods ForwardingObjectHooks does not forward").isEmpty();
    }

    @Test
    void aDecoratorThatOverridesNothingPassesEveryCallAndAnswerOn() {
        Recording real = new Recording();
        ObjectHooks decorated = new ForwardingObjectHooks(real) { };
        ObjectNode object = JsonNodeFactory.instance.objectNode().put("kind", "Widget");
        StoredObject stored = StoredObject.of(new ObjectKey("widgets", null, "a"), 7, object);

        assertThat(decorated.admit(object, Optional.empty(), ObjectHooks.Operation.CREATE)).isSameAs(real.admitted);
        assertThat(decorated.warnings(object, Optional.of(stored), ObjectHooks.Operation.UPDATE)).containsExactly("careful");
        decorated.stored(stored);
        assertThat(decorated.finalizerHoldingDeletion(stored)).isEqualTo("example.com/hold");
        decorated.deleted(stored);
        assertThat(decorated.admitStatus(object, stored)).isSameAs(real.admitted);
        decorated.statusStored(stored);
        assertThat(decorated.readable()).isFalse();

        assertThat(real.calls).containsExactly("admit", "warnings", "stored", "finalizerHoldingDeletion", "deleted",
                "admitStatus", "statusStored", "readable");
    }

    /** Answers something other than every default, and records each call. */
    private static final class Recording implements ObjectHooks {
        final List<String> calls = new ArrayList<>();
        final ObjectNode admitted = JsonNodeFactory.instance.objectNode().put("admitted", true);

        @Override
        public ObjectNode admit(ObjectNode incoming, Optional<StoredObject> existing, Operation op) {
            calls.add("admit");
            return admitted;
        }

        @Override
        public List<String> warnings(ObjectNode admitted, Optional<StoredObject> existing, Operation op) {
            calls.add("warnings");
            return List.of("careful");
        }

        @Override
        public void stored(StoredObject object) {
            calls.add("stored");
        }

        @Override
        public String finalizerHoldingDeletion(StoredObject existing) {
            calls.add("finalizerHoldingDeletion");
            return "example.com/hold";
        }

        @Override
        public void deleted(StoredObject object) {
            calls.add("deleted");
        }

        @Override
        public ObjectNode admitStatus(ObjectNode status, StoredObject existing) {
            calls.add("admitStatus");
            return admitted;
        }

        @Override
        public void statusStored(StoredObject object) {
            calls.add("statusStored");
        }

        @Override
        public boolean readable() {
            calls.add("readable");
            return false;
        }
    }
}
