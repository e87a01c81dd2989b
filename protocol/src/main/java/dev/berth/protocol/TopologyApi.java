package dev.berth.protocol;

/**
 * Wire names of Kueue's Topology Aware Scheduling (KEP-2724): the Topology kind and the pod-template
 * annotations by which a pod set asks for a topology domain.
 */
public final class TopologyApi {
    private TopologyApi() {}

    public static final String KIND = "Topology";
    public static final String PLURAL = "topologies";
    /** The node label Kueue allows only as a Topology's lowest level. */
    public static final String HOSTNAME_LABEL = "kubernetes.io/hostname";
    /** Kueue's limit on a Topology's levels. */
    public static final int MAX_LEVELS = 16;

    public static final String REQUIRED = "kueue.x-k8s.io/podset-required-topology";
    public static final String PREFERRED = "kueue.x-k8s.io/podset-preferred-topology";
    public static final String UNCONSTRAINED = "kueue.x-k8s.io/podset-unconstrained-topology";
    public static final String SLICE_REQUIRED = "kueue.x-k8s.io/podset-slice-required-topology";
    public static final String SLICE_SIZE = "kueue.x-k8s.io/podset-slice-size";

    /** PodSetTopology.mode values. */
    public static final String MODE_REQUIRED = "Required";
    public static final String MODE_PREFERRED = "Preferred";
    public static final String MODE_UNCONSTRAINED = "Unconstrained";
}
