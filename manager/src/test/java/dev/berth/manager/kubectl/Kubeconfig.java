package dev.berth.manager.kubectl;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The one place tests build a kubeconfig for the manager: server URL now; a bearer token and a CA
 * certificate once the API has authentication and TLS.
 */
record Kubeconfig(String server, String tokenOrNull, Path caCertificateOrNull) {
    static Kubeconfig plain(int port) {
        return new Kubeconfig("http://127.0.0.1:" + port, null, null);
    }

    Kubeconfig withToken(String token) {
        return new Kubeconfig(server, token, caCertificateOrNull);
    }

    Kubeconfig withCaCertificate(Path caCertificate) {
        return new Kubeconfig(server, tokenOrNull, caCertificate);
    }

    Path writeTo(Path directory) throws IOException {
        StringBuilder yaml = new StringBuilder()
                .append("apiVersion: v1\nkind: Config\n")
                .append("clusters:\n- name: berth\n  cluster:\n    server: ").append(server).append('\n');
        if (caCertificateOrNull != null) yaml.append("    certificate-authority: ").append(caCertificateOrNull).append('\n');
        yaml.append("users:\n- name: berth-user\n  user:");
        if (tokenOrNull != null) yaml.append("\n    token: ").append(tokenOrNull).append('\n');
        else yaml.append(" {}\n");
        yaml.append("contexts:\n- name: berth\n  context:\n    cluster: berth\n    user: berth-user\n")
                .append("current-context: berth\n");
        Path file = directory.resolve("kubeconfig");
        Files.writeString(file, yaml);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        return file;
    }
}
