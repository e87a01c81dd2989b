package dev.berth.manager.controller;

import dev.berth.manager.explain.ExplainScope;
import dev.berth.manager.security.RbacPolicy;
import dev.berth.manager.security.RbacPolicySource;
import dev.berth.manager.security.RequestAttributes;
import dev.berth.manager.security.UserInfo;
import dev.berth.protocol.KueueApi;
import dev.berth.protocol.RbacApi;
import java.util.Map;
import java.util.TreeMap;

/**
 * Who asks for an explanation, decided from the caller's RBAC: whoever may read ClusterQueues (an
 * operator; anyone when security is off) reads the FLEET scope; anyone else, who got here by the rule
 * on workloads/explain in its namespace, reads the TENANT scope. A tenant is only offered the
 * WorkloadPriorityClasses it may use in that namespace (the verb use), the ones a submission of it
 * would be allowed to name.
 */
record ExplainReader(RbacPolicy policy, UserInfo caller, String namespace, ExplainScope scope) {
    static ExplainReader of(RbacPolicySource rbac, UserInfo caller, String namespace) {
        if (caller == null) return new ExplainReader(null, null, namespace, ExplainScope.FLEET);
        RbacPolicy policy = rbac.current();
        boolean fleet = policy.allows(caller, RequestAttributes.resource("get", KueueApi.GROUP, Resources.CLUSTER_QUEUES.resource(), "", ""));
        return new ExplainReader(policy, caller, namespace, fleet ? ExplainScope.FLEET : ExplainScope.TENANT);
    }

    Map<String, Integer> usablePriorityClasses(Map<String, Integer> all) {
        if (scope == ExplainScope.FLEET) return all;
        Map<String, Integer> usable = new TreeMap<>();
        all.forEach((name, value) -> {
            RequestAttributes use = RequestAttributes.resource(RbacApi.VERB_USE, KueueApi.GROUP, "workloadpriorityclasses", namespace, name);
            if (policy.allows(caller, use)) usable.put(name, value);
        });
        return usable;
    }
}
