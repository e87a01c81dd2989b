package dev.berth.manager.core;

/**
 * One change that would admit a pending workload now, checked by re-running the admission decision
 * on a snapshot with the change made ({@link WhatIfAdmission}). Only the fields of its kind are set:
 * <ul>
 * <li>NOMINAL_QUOTA, BORROWING_LIMIT, LENDING_LIMIT: clusterQueue, flavor, resource, from, to (canonical units; from null: none set)</li>
 * <li>POD_COUNT: podSet, from, to (pods)</li>
 * <li>PRIORITY_CLASS: priorityClass, from, to (priority values)</li>
 * <li>LOCAL_QUEUE: localQueue, clusterQueue (the one it points to)</li>
 * </ul>
 * preempts: the re-run admits only by preempting others (once they are gone).
 */
public record AdmissionRemedy(Kind kind, String clusterQueue, String flavor, String resource, String podSet,
                              String priorityClass, String localQueue, Long from, long to, boolean preempts) {
    public enum Kind { NOMINAL_QUOTA, BORROWING_LIMIT, LENDING_LIMIT, POD_COUNT, PRIORITY_CLASS, LOCAL_QUEUE }

    static AdmissionRemedy quota(Kind kind, String clusterQueue, String flavor, String resource, Long from, long to, boolean preempts) {
        return new AdmissionRemedy(kind, clusterQueue, flavor, resource, null, null, null, from, to, preempts);
    }

    static AdmissionRemedy podCount(String podSet, int from, int to, boolean preempts) {
        return new AdmissionRemedy(Kind.POD_COUNT, null, null, null, podSet, null, null, (long) from, to, preempts);
    }

    static AdmissionRemedy priorityClass(String name, int from, int to, boolean preempts) {
        return new AdmissionRemedy(Kind.PRIORITY_CLASS, null, null, null, null, name, null, (long) from, to, preempts);
    }

    static AdmissionRemedy localQueue(String localQueue, String clusterQueue, boolean preempts) {
        return new AdmissionRemedy(Kind.LOCAL_QUEUE, clusterQueue, null, null, null, null, localQueue, null, 0, preempts);
    }
}
