package dev.berth.chaos;

import java.util.ArrayList;
import java.util.List;

/**
 * What a drill starts: its worker sites (name and virtual-cluster profile), how many manager replicas,
 * and the flags every replica gets on top of the defaults.
 */
public record DrillSetup(List<Site> sites, int replicas, List<String> managerFlags) {
    /** A worker site: its name and its nodes in {@code ClusterProfile} syntax. */
    public record Site(String name, String profile) {
    }

    /** Two A100 sites of two 8-GPU nodes each (either one holds the whole GPU quota), one manager. */
    public static DrillSetup twoSites() {
        return new DrillSetup(List.of(new Site("worker-1", "a100:2x8"), new Site("worker-2", "a100:2x8")), 1, List.of());
    }

    public DrillSetup withReplicas(int count) {
        return new DrillSetup(sites, count, managerFlags);
    }

    public DrillSetup withManagerFlags(List<String> flags) {
        List<String> all = new ArrayList<>(managerFlags);
        all.addAll(flags);
        return new DrillSetup(sites, replicas, List.copyOf(all));
    }
}
