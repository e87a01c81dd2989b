package dev.berth.agent;

/**
 * Remembers the highest fencing epoch the agent has accepted. An attempt with a lower epoch comes
 * from a deposed manager replica and is refused; an equal or higher one is accepted and raises the mark.
 */
public final class FencingGuard {
    private long highestAccepted;

    public FencingGuard(long highestAccepted) {
        this.highestAccepted = highestAccepted;
    }

    /** Accepts the epoch (raising the mark) when it is not older than the highest accepted; else refuses it. */
    public synchronized boolean accept(long epoch) {
        if (epoch < highestAccepted) return false;
        highestAccepted = epoch;
        return true;
    }

    /** Whether an epoch would be refused now, without changing anything. */
    public synchronized boolean isSuperseded(long epoch) {
        return epoch < highestAccepted;
    }

    public synchronized long highestAccepted() {
        return highestAccepted;
    }
}
