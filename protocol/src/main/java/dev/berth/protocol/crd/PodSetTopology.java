package dev.berth.protocol.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.ArrayList;
import java.util.List;

/**
 * The manager's topology decision for one pod set, sent to the worker with the dispatch: the pod
 * set's request (Kueue's podset-required/preferred/unconstrained-topology, slices), the Topology's
 * levels, and the domain the manager chose. The worker assigns the pods to nodes inside that domain
 * (Kueue's topology assignment) and pins each pod there with node constraints.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class PodSetTopology {
    /** Required, Preferred or Unconstrained (Kueue's three request forms). */
    private String mode;
    /** The requested level's node label key (null for Unconstrained). */
    private String level;
    /** Node label keys of the Topology's levels, outermost first. */
    private List<String> levels = new ArrayList<>();
    /**
     * The chosen domain's values, outermost first, down to the level it was chosen at (for example
     * [block-1, rack-2]); empty when the whole flavor may be used (Unconstrained, or Preferred spread).
     */
    private List<String> domain = new ArrayList<>();
    /** Kueue's podset-slice-required-topology level, with the slice size in pods; null when not sliced. */
    private String sliceLevel;
    private Integer sliceSize;

    public String getMode() { return mode; }
    public void setMode(String mode) { this.mode = mode; }
    public String getLevel() { return level; }
    public void setLevel(String level) { this.level = level; }
    public List<String> getLevels() { return levels; }
    public void setLevels(List<String> levels) { this.levels = levels; }
    public List<String> getDomain() { return domain; }
    public void setDomain(List<String> domain) { this.domain = domain; }
    public String getSliceLevel() { return sliceLevel; }
    public void setSliceLevel(String sliceLevel) { this.sliceLevel = sliceLevel; }
    public Integer getSliceSize() { return sliceSize; }
    public void setSliceSize(Integer sliceSize) { this.sliceSize = sliceSize; }
}
