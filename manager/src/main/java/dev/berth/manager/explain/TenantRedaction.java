package dev.berth.manager.explain;

import dev.berth.manager.core.AdmissionDiagnosis;
import dev.berth.manager.model.WorkloadKey;

/**
 * The diagnosis as a tenant may read it: a preemption target in another namespace is shown as
 * "(another namespace)/(hidden)", so the count stays true and no other team's workload is named.
 */
final class TenantRedaction {
    static final WorkloadKey HIDDEN = WorkloadKey.of("(another namespace)", "(hidden)");

    private TenantRedaction() {}

    static AdmissionDiagnosis of(AdmissionDiagnosis d) {
        AdmissionDiagnosis.Preemption p = d.preemption();
        if (p == null) return d;
        String own = d.key().namespace();
        var targets = p.targets().stream().map(t -> t.namespace().equals(own) ? t : HIDDEN).toList();
        return new AdmissionDiagnosis(d.key(), d.request(), d.active(), d.finished(), d.holdsQuota(), d.admitted(), d.queues(),
                d.position(), d.pendingMessage(), d.podSets(), new AdmissionDiagnosis.Preemption(p.possible(), targets, p.candidates(),
                p.blockers()), d.checks());
    }
}
