package dev.berth.manager.clusters;

import io.fabric8.kubernetes.client.Config;
import java.io.File;
import java.io.FileNotFoundException;

/** Worker-cluster clients built from kubeconfigs, and their errors told without the kubeconfig's content. */
final class KubeconfigClients {
    private KubeconfigClients() {
    }

    /** A client for a cluster from its kubeconfig, with fabric8's own retries off and its time limits past resilience4j's. */
    static ClusterClient build(KubeconfigSource source, ResilienceOptions resilience) throws Exception {
        Config config;
        if (source.path() != null) {
            File file = new File(source.path());
            if (!file.isFile()) throw new FileNotFoundException("kubeconfig file " + source.path() + " does not exist");
            config = Config.fromKubeconfig(file);
        } else {
            config = Config.fromKubeconfig(source.content());
        }
        // resilience4j retries and limits time; fabric8's own limits only free the bulkhead's thread of a hung call
        config.setRequestRetryBackoffLimit(0);
        int limit = (int) Math.max(1_000, resilience.callTimeout().toMillis() * 2);
        config.setRequestTimeout(limit);
        config.setConnectionTimeout(limit);
        config.setWatchReconnectLimit(0);
        return ClusterClient.of(config);
    }

    /** An error's message without content of the kubeconfig: exception messages of the parser are replaced. */
    static String describe(Throwable error) {
        Throwable cause = error;
        while (cause.getCause() != null && cause.getMessage() == null) cause = cause.getCause();
        String message = cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
        if (message.contains("apiVersion") || message.contains("certificate-authority-data") || message.length() > 300) {
            return "invalid kubeconfig: " + cause.getClass().getSimpleName();
        }
        return message;
    }
}
