package dev.berth.manager.model;

import java.util.List;
import java.util.Map;

/**
 * A Kueue ProvisioningRequestConfig: the class and parameters of the ProvisioningRequests a
 * provisioning admission check makes, which resources they are for, how failed requests are
 * retried, and which provisioning-class details become node selectors of the admitted pods.
 */
public record ProvisioningConfig(String name, String provisioningClassName, Map<String, String> parameters,
                                 List<String> managedResources, RetryStrategy retryStrategy,
                                 Map<String, String> nodeSelectorFromClassDetails, String podSetMergePolicy) {
    public ProvisioningConfig {
        parameters = Map.copyOf(parameters);
        managedResources = List.copyOf(managedResources);
        nodeSelectorFromClassDetails = Map.copyOf(nodeSelectorFromClassDetails);
    }

    /**
     * Kueue's retryStrategy: a failed request is retried backoffLimitCount times (so at most
     * backoffLimitCount + 1 attempts), the n-th retry after base * 2^(n-1) seconds, at most max.
     */
    public record RetryStrategy(int backoffLimitCount, int backoffBaseSeconds, int backoffMaxSeconds) {
        public static final RetryStrategy DEFAULT = new RetryStrategy(3, 60, 1800);

        /** The number of requests a workload may make: the first and every retry. */
        public int maxAttempts() {
            return backoffLimitCount + 1;
        }
    }
}
