package dev.berth.manager.core;

/**
 * The wait before a workload whose admission check said Retry is queued again, when the check's
 * writer names none (no requeueAfterSeconds): Kueue's ProvisioningRequest check defaults
 * (retryStrategy backoffBaseSeconds 60, doubling, backoffMaxSeconds 1800), computed by Kueue's
 * UpdateAdmissionCheckRequeueState as 60s * 2^(n-1) for the n-th retry, without the jitter.
 * {@link #backoffSeconds} is the same doubling for other bases and caps (waitForPodsReady's requeuing).
 */
public final class AdmissionCheckBackoff {
    public static final int BASE_SECONDS = 60;
    public static final int MAX_SECONDS = 1800;

    private AdmissionCheckBackoff() {}

    /** The wait for the retryNumber-th Retry (1 for the first). */
    public static int requeueAfterSeconds(int retryNumber) {
        return backoffSeconds(retryNumber, BASE_SECONDS, MAX_SECONDS);
    }

    /** base * 2^(n-1) seconds for the n-th requeue (1 for the first), at most maxSeconds; no jitter. */
    public static int backoffSeconds(int requeueNumber, int baseSeconds, int maxSeconds) {
        long seconds = baseSeconds;
        for (int i = 1; i < requeueNumber && seconds < maxSeconds; i++) seconds *= 2;
        return (int) Math.min(seconds, maxSeconds);
    }
}
