package dev.berth.manager.dispatch;

/** Why placement did not choose a cluster, as a code tools can group by; the message says the details. */
public enum RejectionReason {
    NOT_CONNECTED("NotConnected"),
    CORDONED("Cordoned"),
    BREAKER_OPEN("BreakerOpen"),
    UNHEALTHY("Unhealthy"),
    NO_HEARTBEAT("NoHeartbeat"),
    HEARTBEAT_STALE("HeartbeatStale"),
    FLAVOR_MISSING("FlavorMissing"),
    NO_CAPACITY("NoCapacity"),
    NOT_YET("NotYet");

    private final String code;

    RejectionReason(String code) {
        this.code = code;
    }

    public String code() {
        return code;
    }
}
