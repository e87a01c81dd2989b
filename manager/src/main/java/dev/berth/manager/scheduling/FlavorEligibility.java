package dev.berth.manager.scheduling;

import dev.berth.manager.model.LabelRequirement;
import dev.berth.manager.model.PodSetRequest;
import dev.berth.manager.model.ResourceFlavor;
import dev.berth.manager.model.Taint;
import dev.berth.manager.model.Toleration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Whether a pod set may use a flavor at all: its taints are tolerated and its node labels match the pods' selectors. */
public final class FlavorEligibility {
    private FlavorEligibility() {}

    /** The reason the flavor is not eligible, in Kueue's wording, or null when it is. */
    public static String reasonIneligible(ResourceFlavor flavor, PodSetRequest podSet) {
        Taint untolerated = untoleratedTaint(flavor, podSet);
        if (untolerated != null) return "untolerated taint " + untolerated + " in flavor " + flavor.name();
        if (!matchesSelectors(flavor.nodeLabels(), podSet)) return "flavor " + flavor.name() + " doesn't match node affinity";
        return null;
    }

    private static Taint untoleratedTaint(ResourceFlavor flavor, PodSetRequest podSet) {
        List<Toleration> tolerations = new ArrayList<>(podSet.tolerations());
        tolerations.addAll(flavor.tolerations());
        for (Taint taint : flavor.nodeTaints()) {
            if ("PreferNoSchedule".equals(taint.effect())) continue;
            boolean tolerated = false;
            for (Toleration toleration : tolerations) {
                if (toleration.tolerates(taint)) {
                    tolerated = true;
                    break;
                }
            }
            if (!tolerated) return taint;
        }
        return null;
    }

    /** Only keys the flavor defines are compared, as Kueue does: other keys are for the node scheduler. */
    private static boolean matchesSelectors(Map<String, String> flavorLabels, PodSetRequest podSet) {
        for (Map.Entry<String, String> wanted : podSet.nodeSelector().entrySet()) {
            String actual = flavorLabels.get(wanted.getKey());
            if (actual != null && !actual.equals(wanted.getValue())) return false;
        }
        if (podSet.requiredNodeAffinity().isEmpty()) return true;
        for (List<LabelRequirement> term : podSet.requiredNodeAffinity()) {
            if (termMatches(flavorLabels, term)) return true;
        }
        return false;
    }

    private static boolean termMatches(Map<String, String> flavorLabels, List<LabelRequirement> term) {
        for (LabelRequirement requirement : term) {
            if (flavorLabels.containsKey(requirement.key()) && !requirement.matches(flavorLabels)) return false;
        }
        return true;
    }
}
