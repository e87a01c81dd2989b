package dev.berth.manager.model;

/** A (flavor, resource) pair: the unit in which quota is counted. */
public record FlavorResource(String flavor, String resource) {
    @Override
    public String toString() {
        return flavor + "/" + resource;
    }
}
