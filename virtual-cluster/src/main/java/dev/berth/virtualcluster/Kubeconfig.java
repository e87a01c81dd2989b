package dev.berth.virtualcluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** A kubeconfig of a virtual cluster: one cluster, one context named after it, a token user per {@link ClientIdentity}. */
final class Kubeconfig {
    private Kubeconfig() {}

    static String render(String clusterName, String host, int port, ClientIdentity identity) {
        String user = identity == ClientIdentity.ADMIN ? clusterName + "-admin" : identity.user();
        return "apiVersion: v1\n"
            + "kind: Config\n"
            + "clusters:\n"
            + "- name: " + clusterName + "\n"
            + "  cluster:\n"
            + "    server: http://" + host + ":" + port + "\n"
            + "contexts:\n"
            + "- name: " + clusterName + "\n"
            + "  context:\n"
            + "    cluster: " + clusterName + "\n"
            + "    user: " + user + "\n"
            + "    namespace: default\n"
            + "current-context: " + clusterName + "\n"
            + "users:\n"
            + "- name: " + user + "\n"
            + "  user:\n"
            + "    token: " + identity.token(clusterName) + "\n";
    }

    static void write(Path file, String clusterName, String host, int port, ClientIdentity identity) {
        try {
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            Files.writeString(tmp, render(clusterName, host, port, identity), StandardCharsets.UTF_8);
            Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
