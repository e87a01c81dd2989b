package dev.berth.protocol.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.ArrayList;
import java.util.List;

/**
 * Where the agent put one pod set's pods, in the shape of Kueue's
 * {@code status.admission.podSetAssignments[].topologyAssignment}: the level keys the values are given
 * for (only kubernetes.io/hostname when the Topology's lowest level is the node, as Kueue does) and, per
 * domain at that level, its values and how many pods it got.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class PodSetTopologyAssignment {
    private String podSet;
    private List<String> levels = new ArrayList<>();
    private List<Domain> domains = new ArrayList<>();

    public PodSetTopologyAssignment() {}

    public PodSetTopologyAssignment(String podSet, List<String> levels, List<Domain> domains) {
        this.podSet = podSet;
        this.levels = new ArrayList<>(levels);
        this.domains = new ArrayList<>(domains);
    }

    public String getPodSet() { return podSet; }
    public void setPodSet(String podSet) { this.podSet = podSet; }
    public List<String> getLevels() { return levels; }
    public void setLevels(List<String> levels) { this.levels = levels; }
    public List<Domain> getDomains() { return domains; }
    public void setDomains(List<Domain> domains) { this.domains = domains; }

    /** One domain of the assignment: its values at the assignment's levels and its pod count. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public static class Domain {
        private List<String> values = new ArrayList<>();
        private int count;

        public Domain() {}

        public Domain(List<String> values, int count) {
            this.values = new ArrayList<>(values);
            this.count = count;
        }

        public List<String> getValues() { return values; }
        public void setValues(List<String> values) { this.values = values; }
        public int getCount() { return count; }
        public void setCount(int count) { this.count = count; }
    }
}
