package dev.berth.manager.dispatch;

import dev.berth.manager.model.Quantity;
import java.util.List;

/**
 * Why no domain of a cluster's flavor holds a pod set: the level it was looked for at, how much it
 * needs of its main resource, and the best domain there with what it has room for.
 *
 * @param level     the level's label; null when the whole flavor was too small (Unconstrained)
 * @param resource  the pod's main resource (an extended resource such as nvidia.com/gpu if it asks for one)
 * @param needed    count × per-pod amount of that resource
 * @param best      the domain that holds most pods (values outermost first); empty when none or the whole flavor
 * @param bestFits  how many pods fit there
 * @param bestFree  bestFits × per-pod amount of the resource
 */
public record TopologyShortfall(String podSet, String flavor, String level, int count, String resource, long needed,
                                List<String> best, long bestFits, long bestFree) {
    public TopologyShortfall {
        best = List.copyOf(best);
    }

    public String levelName() {
        return level == null ? "flavor" : TopologyNodes.shortName(level);
    }

    /** "no rack has 16 nvidia.com/gpu free for the 16 pods of main in flavor h100; best: block-1/rack-2 with 12". */
    public String message() {
        String what = Quantity.format(resource, needed) + " " + resource;
        String where = level == null ? "flavor " + flavor + " has not " + what + " free for the " + count + " pods of " + podSet
                : "no " + levelName() + " has " + what + " free for the " + count + " pods of " + podSet + " in flavor " + flavor;
        if (best.isEmpty()) return where;
        return where + "; best: " + String.join("/", best) + " with " + Quantity.format(resource, bestFree) + " (room for " + bestFits + " pods)";
    }
}
