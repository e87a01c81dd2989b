package dev.berth.manager.config;

/**
 * A Kueue Configuration file that cannot be used: an unknown field (Kueue decodes strictly), a value of
 * the wrong type, or a value Kueue's validation refuses. {@link #field()} is the path of the offending
 * field (waitForPodsReady.timeout, resources.transformations[0].strategy); the manager exits with 2.
 */
public final class InvalidConfigurationException extends IllegalArgumentException {
    public static final int EXIT_CODE = 2;

    private final String field;

    public InvalidConfigurationException(String field, String problem) {
        super(field.isEmpty() ? problem : field + ": " + problem);
        this.field = field;
    }

    public String field() {
        return field;
    }
}
