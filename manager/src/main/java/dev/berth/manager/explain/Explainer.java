package dev.berth.manager.explain;

import dev.berth.manager.core.AdmissionDiagnosis;
import java.util.List;

/** Puts the four layers of an explanation together: admission, dispatch, worker, runtime. */
public final class Explainer {
    private Explainer() {}

    public static WorkloadExplanation explain(AdmissionDiagnosis diagnosis, DispatchFacts dispatch) {
        String dispatchCheck = dispatch.check() == null ? null : dispatch.check().name();
        Layer admission = AdmissionLayer.of(diagnosis, dispatchCheck);
        boolean reachesDispatch = diagnosis.holdsQuota() && !diagnosis.finished();
        Layer dispatchLayer = DispatchLayer.of(reachesDispatch || (diagnosis.finished() && dispatch.attempt() != null), dispatch);
        RemoteAttempt attempt = dispatch.check() == null ? null : dispatch.attempt();
        return WorkloadExplanation.of(diagnosis.key().namespace(), diagnosis.key().name(),
                List.of(admission, dispatchLayer, WorkerLayer.of(attempt), RuntimeLayer.of(attempt)));
    }
}
