package dev.berth.manager.api;

/** Asked before an object is created through the API; refuses by throwing an {@link ApiException}. */
public interface CreationGate {
    CreationGate NONE = (type, namespace, name) -> { };

    /** @throws ApiException when the object may not be created */
    void beforeCreate(ResourceType type, String namespace, String name);

    /** This gate, then {@code next} if this one lets the object through. */
    default CreationGate then(CreationGate next) {
        return (type, namespace, name) -> {
            beforeCreate(type, namespace, name);
            next.beforeCreate(type, namespace, name);
        };
    }
}
