package dev.berth.manager.explain;

import dev.berth.manager.core.AdmissionAdvice;
import dev.berth.manager.core.AdmissionDiagnosis;
import java.util.List;
import java.util.Optional;

/**
 * Puts the four layers of an explanation together: admission, dispatch, worker, runtime. The answer
 * is the first blocking layer's message, or, when admission waits for quota, its one-line summary
 * ({@link OneLineAnswer}).
 */
public final class Explainer {
    private Explainer() {}

    public static WorkloadExplanation explain(AdmissionDiagnosis diagnosis, DispatchFacts dispatch) {
        return explain(diagnosis, dispatch, List.of());
    }

    /** With the fleet's quota against capacity, so the answer says whether quota or capacity holds the workload back. */
    public static WorkloadExplanation explain(AdmissionDiagnosis diagnosis, DispatchFacts dispatch, List<QuotaAgainstCapacity.Row> capacity) {
        return explain(diagnosis, dispatch, capacity, AdmissionAdvice.NONE, ExplainScope.FLEET);
    }

    /**
     * With what would admit the workload now and when its quota frees up ({@link AdmissionAdvice}),
     * for a reader in the given scope: a TENANT reader is never shown other namespaces' workloads or
     * other teams' ClusterQueues by name.
     */
    public static WorkloadExplanation explain(AdmissionDiagnosis full, DispatchFacts dispatch, List<QuotaAgainstCapacity.Row> capacity,
                                              AdmissionAdvice advice, ExplainScope scope) {
        AdmissionDiagnosis diagnosis = scope == ExplainScope.TENANT ? TenantRedaction.of(full) : full;
        String dispatchCheck = dispatch.check() == null ? null : dispatch.check().name();
        Layer admission = AdmissionLayer.of(diagnosis, dispatchCheck);
        boolean reachesDispatch = diagnosis.holdsQuota() && !diagnosis.finished();
        Layer dispatchLayer = DispatchLayer.of(reachesDispatch || (diagnosis.finished() && dispatch.attempt() != null), dispatch);
        RemoteAttempt attempt = dispatch.check() == null ? null : dispatch.attempt();
        WorkloadExplanation explanation = WorkloadExplanation.of(diagnosis.key().namespace(), diagnosis.key().name(),
                List.of(admission, dispatchLayer, WorkerLayer.of(attempt), RuntimeLayer.of(attempt)));
        Optional<String> unserved = UnservedFlavorAnswer.of(diagnosis, dispatch);
        if (unserved.isPresent()) return explanation.withAnswer(unserved.get());
        if (!admission.stops()) return explanation;
        WorkloadExplanation answered = OneLineAnswer.of(diagnosis, capacity, advice.ahead()).map(explanation::withAnswer).orElse(explanation);
        return answered.withAdvice(AdviceRendering.suggestions(advice, diagnosis.queues().clusterQueue(), diagnosis.queues().cohort(), scope),
                AdviceRendering.estimate(advice));
    }
}
