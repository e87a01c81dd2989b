package dev.berth.protocol.crd;

/** The API group and version of Berth's own objects on worker clusters. */
public final class BerthCrds {
    private BerthCrds() {}

    public static final String GROUP = "berth.dev";
    public static final String VERSION = "v1alpha1";
    public static final String API_VERSION = GROUP + "/" + VERSION;
    /** Where the agent keeps its heartbeat Lease and the manager its flavor catalogue. */
    public static final String SYSTEM_NAMESPACE = "berth-system";
    /** The agent's heartbeat Lease (coordination.k8s.io/v1) in SYSTEM_NAMESPACE. */
    public static final String AGENT_LEASE = "berth-agent";
    /** The ConfigMap in SYSTEM_NAMESPACE holding the ResourceFlavors the manager dispatches with. */
    public static final String FLAVOR_CATALOGUE = "berth-flavors";
    /** Key of the flavor catalogue ConfigMap holding the flavors as JSON. */
    public static final String FLAVOR_CATALOGUE_KEY = "flavors.json";
}
