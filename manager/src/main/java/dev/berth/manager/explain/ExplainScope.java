package dev.berth.manager.explain;

/**
 * Who reads an explanation. FLEET (an operator who may read ClusterQueues) sees every name; TENANT
 * (who may only read its own namespace) sees its own workload, LocalQueues, ClusterQueue and cohort,
 * the names Kueue's own messages show, and of everything else only counts: other namespaces'
 * workloads and other teams' ClusterQueues are never named.
 */
public enum ExplainScope {
    FLEET, TENANT
}
