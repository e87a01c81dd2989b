package dev.berth.manager.metrics;

/** Histogram buckets, Kueue's where Kueue defines them, so that bucket-based queries keep their meaning. */
final class KueueBuckets {
    private KueueBuckets() {}

    /** Kueue's wait-time buckets: 1, then 2.5 doubling 12 times (2.5 s to 10240 s), 14 in all. */
    static final double[] WAIT_TIME = waitTime(14);

    /** Kueue v0.16's kueue_admission_wait_time_seconds alone has 16: up to 40960 s. */
    static final double[] ADMISSION_WAIT_TIME = waitTime(16);

    /** Kueue's admission attempt duration uses the Prometheus client's default buckets. */
    static final double[] ATTEMPT_DURATION = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};

    /** Berth's dispatch latency: from sub-second on a quiet cluster to minutes behind a slow agent. */
    /** Berth's state-thread queue and work durations: from a tenth of a millisecond (an API request) to a stalled pass. */
    static final double[] STATE_THREAD = {0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};
    static final double[] DISPATCH_LATENCY = {0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300};

    private static double[] waitTime(int count) {
        double[] buckets = new double[count];
        buckets[0] = 1;
        double bound = 2.5;
        for (int i = 1; i < buckets.length; i++, bound *= 2) buckets[i] = bound;
        return buckets;
    }
}
