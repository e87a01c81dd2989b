package dev.berth.manager.core;

import java.util.function.LongPredicate;

/** The least value in a range that passes a test that stays passed above it (checked at the top first). */
final class Bisection {
    private Bisection() {}

    /** The least n in [low, high] with passes(n), or -1 when passes(high) is false. */
    static long least(long low, long high, LongPredicate passes) {
        if (high < low || !passes.test(high)) return -1;
        long lo = low;
        long hi = high;
        while (lo < hi) {
            long mid = lo + (hi - lo) / 2;
            if (passes.test(mid)) hi = mid;
            else lo = mid + 1;
        }
        return hi;
    }
}
