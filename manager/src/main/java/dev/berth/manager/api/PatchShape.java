package dev.berth.manager.api;

import java.util.HashMap;
import java.util.Map;

/**
 * What a strategic merge patch needs to know about one object shape, as Kubernetes' Go types declare
 * it with {@code patchStrategy}/{@code patchMergeKey} tags: which list fields merge (and by which key,
 * or as a set of scalars), and the shapes of nested objects and list elements. A field not named here is
 * plain: an object merges key by key, a list is replaced whole. Immutable; each builder step returns a
 * new shape.
 */
final class PatchShape {
    /** The merge key of a list of scalars that merges as a set (metadata.finalizers). */
    static final String SCALAR_SET = "";
    static final PatchShape PLAIN = new PatchShape(Map.of(), Map.of());

    private final Map<String, PatchShape> children;
    private final Map<String, String> mergeKeys;

    private PatchShape(Map<String, PatchShape> children, Map<String, String> mergeKeys) {
        this.children = Map.copyOf(children);
        this.mergeKeys = Map.copyOf(mergeKeys);
    }

    static PatchShape of() {
        return PLAIN;
    }

    /** The shape of the object at field, or of each element of the list at field. */
    PatchShape child(String field) {
        return children.getOrDefault(field, PLAIN);
    }

    /** The merge key of the list at field, {@link #SCALAR_SET} for a set of scalars, or null if the list is replaced. */
    String mergeKey(String field) {
        return mergeKeys.get(field);
    }

    /** An object field with its own shape. */
    PatchShape object(String field, PatchShape shape) {
        Map<String, PatchShape> more = new HashMap<>(children);
        more.put(field, shape);
        return new PatchShape(more, mergeKeys);
    }

    /** A list of objects merged element by element on mergeKey (patchStrategy "merge"). */
    PatchShape mergeList(String field, String mergeKey, PatchShape element) {
        Map<String, String> keys = new HashMap<>(mergeKeys);
        keys.put(field, mergeKey);
        return new PatchShape(children, keys).object(field, element);
    }

    PatchShape mergeList(String field, String mergeKey) {
        return mergeList(field, mergeKey, PLAIN);
    }

    /** A list of scalars merged as a set (patchStrategy "merge" without a key). */
    PatchShape scalarSet(String field) {
        Map<String, String> keys = new HashMap<>(mergeKeys);
        keys.put(field, SCALAR_SET);
        return new PatchShape(children, keys);
    }
}
