package dev.berth.manager.security;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

/** A kubeconfig for kubectl: one cluster (server URL and the CA it trusts), users with bearer tokens. Holds secrets: never log it. */
public final class Kubeconfig {
    private Kubeconfig() {}

    /** One context: its name, the user's name and bearer token. */
    public record Context(String name, String userName, String token) {
        @Override
        public String toString() {
            return "Context[" + name + ", " + userName + "]";
        }
    }

    /** Contexts on one cluster named berth; the first is the current context. */
    public static String withContexts(String serverUrl, String caCertificatePem, List<Context> contexts) {
        String clusterName = "berth";
        String ca = Base64.getEncoder().encodeToString(caCertificatePem.getBytes(StandardCharsets.UTF_8));
        StringBuilder yaml = new StringBuilder("apiVersion: v1\nkind: Config\nclusters:\n")
                .append("- name: ").append(clusterName).append("\n  cluster:\n    server: ").append(serverUrl)
                .append("\n    certificate-authority-data: ").append(ca).append("\nusers:\n");
        for (Context context : contexts) {
            yaml.append("- name: ").append(context.userName()).append("\n  user:\n    token: ").append(context.token()).append('\n');
        }
        yaml.append("contexts:\n");
        for (Context context : contexts) {
            yaml.append("- name: ").append(context.name()).append("\n  context:\n    cluster: ").append(clusterName)
                    .append("\n    user: ").append(context.userName()).append('\n');
        }
        return yaml.append("current-context: ").append(contexts.get(0).name()).append('\n').toString();
    }
}
