package dev.berth.manager.security;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** A kubeconfig for kubectl: one cluster (server URL and the CA it trusts), one user with a bearer token. Holds a secret: never log it. */
public final class Kubeconfig {
    private Kubeconfig() {}

    public static String withToken(String contextName, String serverUrl, String caCertificatePem, String userName, String token) {
        String ca = Base64.getEncoder().encodeToString(caCertificatePem.getBytes(StandardCharsets.UTF_8));
        return """
                apiVersion: v1
                kind: Config
                clusters:
                - name: %1$s
                  cluster:
                    server: %2$s
                    certificate-authority-data: %3$s
                users:
                - name: %4$s
                  user:
                    token: %5$s
                contexts:
                - name: %1$s
                  context:
                    cluster: %1$s
                    user: %4$s
                current-context: %1$s
                """.formatted(contextName, serverUrl, ca, userName, token);
    }
}
