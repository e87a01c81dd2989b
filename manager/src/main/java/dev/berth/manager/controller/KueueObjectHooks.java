package dev.berth.manager.controller;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.api.ObjectHooks;
import dev.berth.manager.objects.ApiVersionConverter;
import dev.berth.manager.store.StoredObject;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Hooks for a Kueue queue object: convert v1beta1 to v1beta2 (with deprecation warnings), validate
 * by decoding into the model, then feed the decoded object to the controller once stored.
 */
final class KueueObjectHooks<T> implements ObjectHooks {
    private final ManagerState state;
    private final Function<ObjectNode, T> decoder;
    private final Validation<T> crossChecks;
    private final Consumer<T> apply;
    private final Consumer<StoredObject> remove;
    private List<String> lastWarnings = List.of();

    /** Checks that need other stored objects, for example that referenced flavors exist. */
    interface Validation<T> {
        void check(T decoded);
    }

    KueueObjectHooks(ManagerState state, Function<ObjectNode, T> decoder, Validation<T> crossChecks,
                     Consumer<T> apply, Consumer<StoredObject> remove) {
        this.state = state;
        this.decoder = decoder;
        this.crossChecks = crossChecks;
        this.apply = apply;
        this.remove = remove;
    }

    @Override
    public ObjectNode admit(ObjectNode incoming, Optional<StoredObject> existing, Operation op) {
        lastWarnings = ApiVersionConverter.toV1beta2(incoming);
        T decoded = decoder.apply(incoming);
        crossChecks.check(decoded);
        return incoming;
    }

    @Override
    public List<String> warnings(ObjectNode admitted, Optional<StoredObject> existing, Operation op) {
        return lastWarnings;
    }

    @Override
    public void stored(StoredObject object) {
        apply.accept(decoder.apply(object.object()));
        state.reschedule();
    }

    @Override
    public void deleted(StoredObject object) {
        remove.accept(object);
        state.reschedule();
    }
}
