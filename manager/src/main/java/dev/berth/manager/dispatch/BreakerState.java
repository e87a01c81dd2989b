package dev.berth.manager.dispatch;

/** The state of a cluster's circuit breaker as decisions see it (the edge maps resilience4j's states onto it). */
public enum BreakerState {
    CLOSED, HALF_OPEN, OPEN
}
