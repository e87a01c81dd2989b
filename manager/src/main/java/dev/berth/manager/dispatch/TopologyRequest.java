package dev.berth.manager.dispatch;

/**
 * A pod set's topology request in Kueue's forms (KEP-2724): Required or Preferred at a level (a node
 * label key of the flavor's Topology), or Unconstrained; optionally sliced, every {@code sliceSize}
 * pods inside one domain at {@code sliceLevel} (podset-slice-required-topology, podset-slice-size).
 */
public record TopologyRequest(Mode mode, String level, String sliceLevel, int sliceSize) {
    public enum Mode { REQUIRED, PREFERRED, UNCONSTRAINED }

    public TopologyRequest {
        if (mode == Mode.UNCONSTRAINED) level = null;
        if (sliceLevel == null) sliceSize = 0;
    }

    public static TopologyRequest required(String level) {
        return new TopologyRequest(Mode.REQUIRED, level, null, 0);
    }

    public static TopologyRequest preferred(String level) {
        return new TopologyRequest(Mode.PREFERRED, level, null, 0);
    }

    public static TopologyRequest unconstrained() {
        return new TopologyRequest(Mode.UNCONSTRAINED, null, null, 0);
    }

    public TopologyRequest sliced(String level, int size) {
        return new TopologyRequest(mode, this.level, level, size);
    }

    public boolean isSliced() {
        return sliceLevel != null && sliceSize > 0;
    }
}
