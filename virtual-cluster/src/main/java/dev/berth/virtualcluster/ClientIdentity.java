package dev.berth.virtualcluster;

import java.util.Arrays;
import java.util.Optional;

/**
 * Who calls a virtual cluster's API. The mock server checks no credentials, but each identity has its
 * own kubeconfig with its own token, so the cluster can tell the worker agent's requests from the
 * manager's (and from a test's or an operator's) when it records them.
 */
public enum ClientIdentity {
    /** Tests, the quickstart's operator, kubectl: anything goes. The kubeconfig named in the READY line. */
    ADMIN("admin", "kubeconfig"),
    /** The worker agent; in a real cluster the ServiceAccount berth-agent of deploy/worker-agent/base. */
    AGENT("berth-agent", "agent.kubeconfig"),
    /** The manager; in a real cluster the ServiceAccount berth-manager-access of deploy/worker-agent/manager-access. */
    MANAGER("berth-manager-access", "manager.kubeconfig");

    private final String user;
    private final String kubeconfigFile;

    ClientIdentity(String user, String kubeconfigFile) {
        this.user = user;
        this.kubeconfigFile = kubeconfigFile;
    }

    /** The kubeconfig user name, and the name recorded for this identity's requests. */
    public String user() {
        return user;
    }

    public String kubeconfigFile() {
        return kubeconfigFile;
    }

    /** The bearer token this identity's kubeconfig carries for cluster {@code clusterName}. */
    public String token(String clusterName) {
        return this == ADMIN ? "virtual-cluster-" + clusterName : user + "-" + clusterName;
    }

    /** The identity whose token this is, if any. */
    public static Optional<ClientIdentity> ofToken(String clusterName, String token) {
        return Arrays.stream(values()).filter(identity -> identity.token(clusterName).equals(token)).findFirst();
    }
}
