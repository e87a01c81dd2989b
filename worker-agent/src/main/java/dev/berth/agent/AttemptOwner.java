package dev.berth.agent;

/** The RemoteWorkload an attempt's objects belong to: where they go and whom they name as owner. */
public record AttemptOwner(String namespace, String name, String uid, String attemptId, String workloadName) {}
