package dev.berth.manager.dashboard;

import java.util.HashMap;
import java.util.Map;

/**
 * How many dashboard streams are open, per owner (a user, or an address when security is off) and in
 * all; a new one is admitted only below both caps. Thread-safe: requests arrive on any event loop.
 */
final class StreamSlots {
    private final int perOwner;
    private final int total;
    private final Map<String, Integer> open = new HashMap<>();
    private int inUse;

    StreamSlots(int perOwner, int total) {
        if (perOwner <= 0 || total <= 0) throw new IllegalArgumentException("stream limits must be positive");
        this.perOwner = perOwner;
        this.total = total;
    }

    /** Null when admitted; otherwise why not. */
    synchronized String tryAcquire(String owner) {
        if (inUse >= total) return "the server already serves its limit of " + total + " dashboard streams";
        int mine = open.getOrDefault(owner, 0);
        if (mine >= perOwner) return "the limit of " + perOwner + " dashboard streams per user is reached";
        open.put(owner, mine + 1);
        inUse++;
        return null;
    }

    synchronized void release(String owner) {
        Integer mine = open.get(owner);
        if (mine == null) return;
        if (mine <= 1) open.remove(owner); else open.put(owner, mine - 1);
        inUse--;
    }

    synchronized int inUse() {
        return inUse;
    }
}
