package dev.berth.manager.security;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.CertificateFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The quickstart's security, made on first start and reused after: a self-signed serving pair
 * (SANs localhost and 127.0.0.1), a token file with a generated admin token (group system:masters)
 * and a tenant token for team-a, and a kubeconfig with a context for each. Files holding a token or
 * a key are created with mode 0600. Holds secrets: {@link #toString()} never shows them.
 */
public final class QuickstartCredentials {
    public static final String ADMIN_USER = "berth-admin";
    public static final String TENANT_USER = "team-a-user";
    public static final String TENANT_GROUP = "team-a";
    public static final String ADMIN_CONTEXT = "berth-admin";
    public static final String TENANT_CONTEXT = "berth-team-a";
    private static final String OWNER_ONLY = "rw-------";

    private final Path dir;
    private final String certificatePem;
    private final String adminToken;
    private final String tenantToken;

    private QuickstartCredentials(Path dir, String certificatePem, String adminToken, String tenantToken) {
        this.dir = dir;
        this.certificatePem = certificatePem;
        this.adminToken = adminToken;
        this.tenantToken = tenantToken;
    }

    /** Loads the credentials under dir, generating whatever is missing. */
    public static QuickstartCredentials prepare(Path dir, Clock clock) {
        try {
            Files.createDirectories(dir);
            if (!Files.exists(dir.resolve("tls.crt")) || !Files.exists(dir.resolve("tls.key"))) {
                SelfSignedCertificate pair = SelfSignedCertificate.generate("berth-quickstart", List.of("localhost"), List.of("127.0.0.1"),
                        Duration.ofDays(365), clock);
                writeSecret(dir.resolve("tls.key"), pair.privateKeyPem());
                Files.writeString(dir.resolve("tls.crt"), pair.certificatePem());
            }
            Path tokens = dir.resolve("tokens.csv");
            if (!Files.exists(tokens)) {
                writeSecret(tokens, "# Berth quickstart bearer tokens (kube-apiserver --token-auth-file format). Keep private.\n"
                        + newToken() + "," + ADMIN_USER + ",1,\"system:masters\"\n"
                        + newToken() + "," + TENANT_USER + ",2,\"" + TENANT_GROUP + "\"\n");
            }
            String text = Files.readString(tokens);
            return new QuickstartCredentials(dir, Files.readString(dir.resolve("tls.crt")),
                    tokenOf(text, ADMIN_USER, tokens), tokenOf(text, TENANT_USER, tokens));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare the quickstart credentials in " + dir + ": " + e.getMessage(), e);
        }
    }

    /** Token file, TLS pair, default rate limits and the audit log beside them. */
    public SecurityOptions options() {
        return new SecurityOptions(Optional.of(dir.resolve("tokens.csv")), Optional.empty(),
                Optional.of(new SecurityOptions.Tls(dir.resolve("tls.crt"), dir.resolve("tls.key"))),
                SecurityOptions.DEFAULT_TENANT_RATE, SecurityOptions.DEFAULT_ADMIN_RATE, dir.resolve("audit.log"));
    }

    /** Writes (mode 0600) a kubeconfig for serverUrl: the admin context (current) and the team-a tenant context. */
    public Path writeKubeconfig(Path file, String serverUrl) {
        try {
            if (file.toAbsolutePath().getParent() != null) Files.createDirectories(file.toAbsolutePath().getParent());
            Files.deleteIfExists(file);
            writeSecret(file, Kubeconfig.withContexts(serverUrl, certificatePem, List.of(
                    new Kubeconfig.Context(ADMIN_CONTEXT, ADMIN_USER, adminToken),
                    new Kubeconfig.Context(TENANT_CONTEXT, TENANT_USER, tenantToken))));
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the kubeconfig " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * A fresh one-time dashboard sign-in link for the admin, minted by the manager at serverUrl as
     * {@code kubectl berth dashboard} mints one (POST /dashboard/sign-in-links with the admin token,
     * over TLS trusting only this pair's certificate). The token never leaves this object; the link
     * carries a code that works once, for 10 minutes.
     */
    public String dashboardLink(String serverUrl, Duration timeout) {
        try {
            HttpClient client = HttpClient.newBuilder().connectTimeout(timeout).sslContext(trustingOwnCertificate()).build();
            HttpResponse<String> minted = client.send(HttpRequest.newBuilder(URI.create(serverUrl + RbacPolicy.DASHBOARD_SIGN_IN_LINKS))
                    .timeout(timeout).header("Authorization", "Bearer " + adminToken)
                    .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            if (minted.statusCode() != 201) throw new IllegalStateException("the manager refused a dashboard link: HTTP " + minted.statusCode());
            return serverUrl + new ObjectMapper().readTree(minted.body()).path("path").asText();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot mint a dashboard link at " + serverUrl + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while minting a dashboard link", e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot trust the quickstart certificate: " + e.getMessage(), e);
        }
    }

    private SSLContext trustingOwnCertificate() throws GeneralSecurityException, IOException {
        KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
        trust.load(null, null);
        trust.setCertificateEntry("berth-quickstart", CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(certificatePem.getBytes(StandardCharsets.US_ASCII))));
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, factory.getTrustManagers(), null);
        return context;
    }

    public String certificatePem() {
        return certificatePem;
    }

    @Override
    public String toString() {
        return "QuickstartCredentials[" + dir + "]";
    }

    private static void writeSecret(Path file, String text) throws IOException {
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(OWNER_ONLY)));
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    private static String newToken() {
        byte[] bytes = new byte[32];
        new SecureRandom().nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static String tokenOf(String tokenFile, String user, Path file) {
        for (String line : tokenFile.split("\r?\n")) {
            String[] fields = line.split(",", 3);
            if (!line.startsWith("#") && fields.length == 3 && fields[1].strip().equals(user)) return fields[0].strip();
        }
        throw new IllegalStateException(file + " holds no token for the user " + user + "; delete it to generate new tokens");
    }
}
