package dev.berth.manager.core;

/**
 * The one {@link AdmissionListener} the controller's parts share; the metrics listener is plugged in
 * after the controller is built ({@link AdmissionController#setListener}).
 */
final class SwitchableAdmissionListener implements AdmissionListener {
    private AdmissionListener target = AdmissionListener.NONE;

    void switchTo(AdmissionListener listener) {
        this.target = listener == null ? AdmissionListener.NONE : listener;
    }

    @Override
    public long attemptStarting() {
        return target.attemptStarting();
    }

    @Override
    public void attempt(boolean success, long startToken) {
        target.attempt(success, startToken);
    }

    @Override
    public void quotaReserved(String clusterQueue, long waitedMillis) {
        target.quotaReserved(clusterQueue, waitedMillis);
    }

    @Override
    public void admitted(String clusterQueue, long waitedMillis, long checksMillis) {
        target.admitted(clusterQueue, waitedMillis, checksMillis);
    }

    @Override
    public void evicted(String clusterQueue, String reason) {
        target.evicted(clusterQueue, reason);
    }

    @Override
    public void quotaReserved(WorkloadMetricLabels workload, long waitedMillis) {
        target.quotaReserved(workload, waitedMillis);
    }

    @Override
    public void admitted(WorkloadMetricLabels workload, long waitedMillis, long checksMillis) {
        target.admitted(workload, waitedMillis, checksMillis);
    }

    @Override
    public void evicted(WorkloadMetricLabels workload, String reason, String underlyingCause) {
        target.evicted(workload, reason, underlyingCause);
    }

    @Override
    public void finished(WorkloadMetricLabels workload) {
        target.finished(workload);
    }

    @Override
    public void preempted(String preemptingClusterQueue, String reason) {
        target.preempted(preemptingClusterQueue, reason);
    }
}
