package dev.berth.manager.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.store.StoredObject;
import java.util.List;
import java.util.Optional;

/** A kind's hooks for {@code dryRun=All}: validation and admission run, the after-write notifications do not. */
record DryRunHooks(ObjectHooks real) implements ObjectHooks {
    @Override
    public ObjectNode admit(ObjectNode incoming, Optional<StoredObject> existing, Operation op) {
        return real.admit(incoming, existing, op);
    }

    @Override
    public List<String> warnings(ObjectNode admitted, Optional<StoredObject> existing, Operation op) {
        return real.warnings(admitted, existing, op);
    }

    @Override
    public ObjectNode admitStatus(ObjectNode status, StoredObject existing) {
        return real.admitStatus(status, existing);
    }

    @Override
    public boolean readable() {
        return real.readable();
    }
}
