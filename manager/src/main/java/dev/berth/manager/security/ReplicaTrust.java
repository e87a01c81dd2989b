package dev.berth.manager.security;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;

/**
 * How manager replicas know each other: mutual TLS with certificates from one replica CA, as
 * kube-apiserver trusts its front proxy (--requestheader-client-ca-file and
 * --requestheader-allowed-names). Each replica serves its replica port with its certificate and
 * presents the same certificate when it forwards; a peer is a replica when its certificate chains to
 * the CA and its common name is allowed (an empty list allows any certificate the CA signed).
 * port is where this replica's replica listener listens (0: any free port, for tests).
 */
public record ReplicaTrust(Path caFile, Path certificateFile, Path keyFile, Set<String> allowedNames, int port) {
    public ReplicaTrust {
        Objects.requireNonNull(caFile, "--replica-ca-file");
        Objects.requireNonNull(certificateFile, "--replica-cert-file");
        Objects.requireNonNull(keyFile, "--replica-key-file");
        allowedNames = Set.copyOf(allowedNames);
        if (port < 0 || port > 65535) throw new IllegalArgumentException("--replica-port must be 0 to 65535");
    }

    /** The replica CA's certificate, read from caFile. */
    public X509Certificate ca() {
        try (InputStream in = Files.newInputStream(caFile)) {
            return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read --replica-ca-file " + caFile, e);
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("--replica-ca-file " + caFile + " is not a PEM certificate: " + e.getMessage(), e);
        }
    }

    /**
     * Whether a peer that presented this chain is a replica: its certificate is signed by the replica
     * CA, valid at now, and its common name allowed. The TLS layer checked the chain already; this
     * check does not rely on it.
     */
    public boolean admits(List<X509Certificate> chain, X509Certificate ca, Instant now) {
        if (chain.isEmpty()) return false;
        X509Certificate peer = chain.get(0);
        try {
            peer.verify(ca.getPublicKey());
            peer.checkValidity(Date.from(now));
        } catch (GeneralSecurityException notFromTheReplicaCa) {
            return false;
        }
        return allowedNames.isEmpty() || allowedNames.contains(commonName(peer));
    }

    /** The CN of a certificate's subject, or "" when it has none. */
    public static String commonName(X509Certificate certificate) {
        try {
            for (Rdn rdn : new LdapName(certificate.getSubjectX500Principal().getName()).getRdns()) {
                if (rdn.getType().equalsIgnoreCase("CN")) return rdn.getValue().toString();
            }
        } catch (InvalidNameException e) {
            return "";
        }
        return "";
    }
}
