package dev.berth.manager.explain;

import dev.berth.manager.core.AdmissionAdvice;
import dev.berth.manager.core.AdmissionRemedy;
import dev.berth.manager.model.Quantity;
import java.util.List;

/**
 * The "what would admit it" list and the "when" sentence of an explanation, from the re-runs of
 * {@link AdmissionAdvice}. For a TENANT reader another team's ClusterQueue is "another ClusterQueue
 * in cohort X" and its limits are not shown, only the change.
 */
final class AdviceRendering {
    private AdviceRendering() {}

    static List<Suggestion> suggestions(AdmissionAdvice advice, String ownQueue, String cohort, ExplainScope scope) {
        return advice.remedies().stream().map(r -> new Suggestion(kind(r.kind()), change(r, ownQueue, cohort, scope), r.preempts())).toList();
    }

    /** "Quota frees up by 2026-01-01T01:00:00Z at the latest, when 2 running workloads reach their maximum execution time." */
    static String estimate(AdmissionAdvice advice) {
        AdmissionAdvice.Release release = advice.release();
        if (release == null) return null;
        int n = release.workloads();
        return "The quota it needs frees up by " + release.at() + " at the latest, when " + n + " running workload"
                + (n == 1 ? " reaches its" : "s reach their") + " maximum execution time"
                + (release.sameNamespace() == n ? "" : " (" + release.sameNamespace() + " of them in this namespace)") + ".";
    }

    private static String kind(AdmissionRemedy.Kind kind) {
        return switch (kind) {
            case NOMINAL_QUOTA -> "NominalQuota";
            case BORROWING_LIMIT -> "BorrowingLimit";
            case LENDING_LIMIT -> "LendingLimit";
            case POD_COUNT -> "PodCount";
            case PRIORITY_CLASS -> "PriorityClass";
            case LOCAL_QUEUE -> "LocalQueue";
        };
    }

    private static String change(AdmissionRemedy r, String ownQueue, String cohort, ExplainScope scope) {
        String then = r.preempts() ? " (admitted after preempting)" : "";
        return switch (r.kind()) {
            case NOMINAL_QUOTA -> limit("nominalQuota", r, ownQueue, cohort, scope) + then;
            case BORROWING_LIMIT -> limit("borrowingLimit", r, ownQueue, cohort, scope) + then;
            case LENDING_LIMIT -> limit("lendingLimit", r, ownQueue, cohort, scope) + then;
            case POD_COUNT -> "Reduce pod set " + r.podSet() + " to " + r.to() + " pods (from " + r.from() + ")" + then;
            case PRIORITY_CLASS -> "Use WorkloadPriorityClass " + r.priorityClass() + " (priority " + r.to() + ", now " + r.from() + ")"
                    + (r.preempts() ? ": it may preempt" : "");
            case LOCAL_QUEUE -> "Move it to LocalQueue " + r.localQueue() + " (ClusterQueue " + r.clusterQueue() + ")" + then;
        };
    }

    /** "Raise the borrowingLimit of team-a-cq for a100 nvidia.com/gpu by 4 (4 to 8)". */
    private static String limit(String field, AdmissionRemedy r, String ownQueue, String cohort, ExplainScope scope) {
        boolean named = scope == ExplainScope.FLEET || r.clusterQueue().equals(ownQueue);
        String queue = named ? r.clusterQueue() : "another ClusterQueue in cohort " + cohort;
        String of = " of " + queue + " for " + r.flavor() + " " + r.resource();
        String resource = r.resource();
        if (r.from() == null) return "Set the " + field + of + " to " + Quantity.format(resource, r.to());
        String by = " by " + Quantity.format(resource, r.to() - r.from());
        return "Raise the " + field + of + by + (named ? " (" + Quantity.format(resource, r.from()) + " to " + Quantity.format(resource, r.to()) + ")" : "");
    }
}
