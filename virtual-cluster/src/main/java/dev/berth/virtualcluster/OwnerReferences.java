package dev.berth.virtualcluster;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import java.util.List;
import java.util.Optional;

/** Reading an object's owner references. */
final class OwnerReferences {
    private OwnerReferences() {}

    static Optional<String> controllerUid(ObjectMeta metadata) {
        return controller(metadata).map(OwnerReference::getUid);
    }

    static Optional<OwnerReference> controller(ObjectMeta metadata) {
        List<OwnerReference> owners = metadata.getOwnerReferences();
        if (owners == null) {
            return Optional.empty();
        }
        return owners.stream().filter(o -> Boolean.TRUE.equals(o.getController())).findFirst();
    }
}
