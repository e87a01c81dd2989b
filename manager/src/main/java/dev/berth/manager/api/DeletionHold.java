package dev.berth.manager.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.store.ObjectStore;
import dev.berth.manager.store.StoredObject;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/**
 * kube-apiserver's delete of an object a finalizer holds: the object is written with
 * {@code deletionTimestamp} (kept from the first delete) and the finalizer, and stays readable; the
 * answer is the object as marked. A repeated delete of a marked object writes nothing.
 */
final class DeletionHold {
    private DeletionHold() {}

    static StoredObject mark(ObjectStore store, StoredObject existing, String finalizer, Clock clock) {
        ObjectNode object = existing.object();
        ObjectNode metadata = object.with("metadata");
        boolean changed = false;
        if (!metadata.has("deletionTimestamp")) {
            metadata.put("deletionTimestamp", DateTimeFormatter.ISO_INSTANT.format(Instant.now(clock).truncatedTo(ChronoUnit.SECONDS)));
            metadata.put("deletionGracePeriodSeconds", 0);
            changed = true;
        }
        ArrayNode finalizers = metadata.withArray("finalizers");
        boolean present = false;
        for (JsonNode name : finalizers) present |= finalizer.equals(name.asText());
        if (!present) {
            finalizers.add(finalizer);
            changed = true;
        }
        return changed ? store.replace(existing.key(), object, Long.toString(existing.resourceVersion())) : existing;
    }
}
