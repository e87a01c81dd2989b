package dev.berth.system;

/** A virtual GPU cluster to start: its name, node profile (see ClusterProfile), and whether its nodes are spot. */
public record WorkerClusterSpec(String name, String profile, boolean spot) {
}
