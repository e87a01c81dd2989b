package dev.berth.protocol;

/** Well-known resource names. */
public final class ResourceNames {
    private ResourceNames() {}

    public static final String CPU = "cpu";
    public static final String MEMORY = "memory";
    public static final String PODS = "pods";
    public static final String GPU = "nvidia.com/gpu";
}
