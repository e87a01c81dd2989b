package dev.berth.manager.model;

/**
 * Arithmetic on canonical amounts (millicores, bytes, units) that never wraps around. Validation keeps
 * every single workload's total within a long ({@link #MAX}); sums over many workloads or many
 * ClusterQueues saturate at {@link #MAX} instead, so an oversized sum reads as "everything", which
 * makes quota checks refuse rather than admit.
 */
public final class Amounts {
    /** The largest amount Berth accounts: 2^63-1 canonical units (9.2e15 cpu, 8 EiB of memory). */
    public static final long MAX = Long.MAX_VALUE;

    private Amounts() {}

    /** a + b, or MAX (MIN) when the exact sum is above (below) what a long holds. */
    public static long add(long a, long b) {
        long sum = a + b;
        if (((a ^ sum) & (b ^ sum)) < 0) return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        return sum;
    }

    /** a - b, saturating like {@link #add}. */
    public static long subtract(long a, long b) {
        long difference = a - b;
        if (((a ^ b) & (a ^ difference)) < 0) return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        return difference;
    }

    /** a × b, saturating like {@link #add}. */
    public static long multiply(long a, long b) {
        long high = Math.multiplyHigh(a, b);
        long low = a * b;
        if ((high == 0 && low >= 0) || (high == -1 && low < 0)) return low;
        return (a < 0) == (b < 0) ? Long.MAX_VALUE : Long.MIN_VALUE;
    }

    /** a ÷ b rounded up, for non-negative a and positive b, without the overflow of (a + b - 1) / b. */
    public static long divideRoundingUp(long a, long b) {
        return a / b + (a % b == 0 ? 0 : 1);
    }
}
