package dev.berth.manager.explain;

import dev.berth.manager.model.Amounts;
import dev.berth.manager.core.AdmissionDiagnosis;
import dev.berth.manager.core.AdmissionDiagnosis.FlavorTrial;
import dev.berth.manager.core.AdmissionDiagnosis.PodSetTrial;
import dev.berth.manager.core.AdmissionDiagnosis.ResourceTrial;
import dev.berth.manager.model.Quantity;
import dev.berth.manager.scheduling.FitMode;
import dev.berth.protocol.VisibilityApi.Layers;
import dev.berth.protocol.VisibilityApi.Reasons;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The admission layer of a workload whose queues are fine: it waits its turn, preempts, or does
 * not fit. For a misfit it names, per flavor tried, the resource that is short with the numbers,
 * what borrowing could add and what limits it, and what blocks preemption.
 */
final class QuotaShortfall {
    private QuotaShortfall() {}

    static Layer layer(AdmissionDiagnosis d, Map<String, Object> details) {
        String where = position(d);
        PodSetTrial failing = d.podSets().stream().filter(p -> p.mode() != FitMode.FIT).findFirst().orElse(null);
        if (failing == null) {
            return Layer.waiting(Layers.ADMISSION, Reasons.QUEUED,
                    "The workload fits; it is admitted in the next scheduling cycle" + where + ".", details);
        }
        var preemption = d.preemption();
        if (preemption != null && preemption.possible()) {
            return Layer.waiting(Layers.ADMISSION, Reasons.PREEMPTING, "Preempting " + preemption.targets().size()
                    + " workload(s) (" + String.join(", ", preemption.targets().stream().map(Object::toString).toList())
                    + ") to make room in ClusterQueue " + d.queues().clusterQueue() + where + ".", details);
        }
        String head = "Pod set " + failing.name() + " (" + failing.count() + " pods) in ClusterQueue " + d.queues().clusterQueue() + ": ";
        List<FlavorTrial> eligible = failing.flavors().stream().filter(f -> f.ineligible() == null).toList();
        if (eligible.isEmpty()) {
            List<String> why = failing.flavors().isEmpty() ? failing.reasons()
                    : failing.flavors().stream().map(FlavorTrial::ineligible).toList();
            return Layer.blocked(Layers.ADMISSION, Reasons.FLAVOR_NOT_ELIGIBLE,
                    head + "no flavor can take it: " + String.join("; ", why) + where + ".", details);
        }
        List<String> shortages = new ArrayList<>();
        boolean borrowingLimited = false;
        for (FlavorTrial flavor : eligible) {
            for (ResourceTrial resource : flavor.resources()) {
                if (resource.fits()) continue;
                shortages.add(describe(flavor.flavor(), resource));
                borrowingLimited |= limitedByBorrowing(resource);
                break;
            }
        }
        String message = head + String.join("; ", shortages);
        String reason = borrowingLimited ? Reasons.BORROWING_LIMITED : Reasons.INSUFFICIENT_QUOTA;
        if (preemption != null && !preemption.blockers().isEmpty()) {
            message += "; preemption cannot help: " + String.join("; ", preemption.blockers());
            if (failing.mode() == FitMode.PREEMPT) reason = Reasons.PREEMPTION_BLOCKED;
        }
        return Layer.blocked(Layers.ADMISSION, reason, message + where + ".", details);
    }

    /** "flavor a100, nvidia.com/gpu: needs 8, available 2 of nominal 8 (6 in use); borrowing could give 4 more from cohort gpu-pool (borrowingLimit 4)". */
    static String describe(String flavor, ResourceTrial r) {
        String resource = r.resource();
        StringBuilder text = new StringBuilder("flavor ").append(flavor).append(", ").append(resource)
                .append(": needs ").append(q(resource, r.needed()))
                .append(", available ").append(q(resource, r.freeNominal())).append(" of nominal ").append(q(resource, r.nominal()))
                .append(" (").append(q(resource, r.usage())).append(" in use)");
        if (r.cohort() == null) {
            text.append("; no cohort to borrow from");
        } else if (r.borrowable() > 0) {
            text.append("; borrowing could give ").append(q(resource, r.borrowable())).append(" more from cohort ").append(r.cohort());
            if (r.borrowingLimit() != null) text.append(" (borrowingLimit ").append(q(resource, r.borrowingLimit())).append(')');
            text.append(", still ").append(q(resource, r.needed() - r.available())).append(" short");
        } else if (limitedByBorrowing(r)) {
            text.append("; borrowing is capped by borrowingLimit ").append(q(resource, r.borrowingLimit()))
                    .append(" (at most ").append(q(resource, Amounts.add(r.nominal(), r.borrowingLimit()))).append(" in use)");
        } else {
            text.append("; nothing to borrow in cohort ").append(r.cohort()).append(" now (the other queues use or keep their quota)");
        }
        if (r.needed() > r.potential()) {
            text.append("; more than the ClusterQueue could ever get (at most ").append(q(resource, r.potential())).append(')');
        }
        return text.toString();
    }

    private static boolean limitedByBorrowing(ResourceTrial r) {
        return r.borrowingLimit() != null && Amounts.add(r.usage(), r.needed()) > Amounts.add(r.nominal(), r.borrowingLimit());
    }

    private static String position(AdmissionDiagnosis d) {
        if (d.position() == null) return "";
        return "; position " + (d.position().inClusterQueue() + 1) + " of " + d.position().pendingInClusterQueue()
                + " in ClusterQueue " + d.queues().clusterQueue() + " (" + (d.position().inLocalQueue() + 1)
                + " in LocalQueue " + d.queues().localQueue() + ")";
    }

    static List<Map<String, Object>> podSetDetails(AdmissionDiagnosis d) {
        List<Map<String, Object>> podSets = new ArrayList<>();
        for (PodSetTrial podSet : d.podSets()) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("name", podSet.name());
            entry.put("count", podSet.count());
            entry.put("fit", podSet.mode().name());
            entry.put("flavors", new java.util.TreeMap<>(podSet.chosenFlavors()));
            entry.put("schedulerReasons", podSet.reasons());
            List<Map<String, Object>> tried = new ArrayList<>();
            for (FlavorTrial flavor : podSet.flavors()) {
                Map<String, Object> f = new LinkedHashMap<>();
                f.put("flavor", flavor.flavor());
                f.put("eligible", flavor.ineligible() == null);
                if (flavor.ineligible() != null) f.put("ineligibleReason", flavor.ineligible());
                f.put("resources", flavor.resources().stream().map(QuotaShortfall::resourceDetails).toList());
                tried.add(f);
            }
            entry.put("flavorsTried", tried);
            podSets.add(entry);
        }
        return podSets;
    }

    private static Map<String, Object> resourceDetails(ResourceTrial r) {
        String resource = r.resource();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("resource", resource);
        m.put("needed", q(resource, r.needed()));
        m.put("nominalQuota", q(resource, r.nominal()));
        m.put("usage", q(resource, r.usage()));
        m.put("availableNominal", q(resource, r.freeNominal()));
        m.put("borrowable", q(resource, r.borrowable()));
        m.put("availableNow", q(resource, r.available()));
        m.put("maximum", q(resource, r.potential()));
        if (r.borrowingLimit() != null) m.put("borrowingLimit", q(resource, r.borrowingLimit()));
        m.put("fits", r.fits());
        return m;
    }

    private static String q(String resource, long amount) {
        return Quantity.format(resource, amount);
    }
}
