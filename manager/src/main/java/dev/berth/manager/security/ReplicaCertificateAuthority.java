package dev.berth.manager.security;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Set;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A replica CA for one-machine runs and tests (real deployments bring their own, e.g. from
 * cert-manager): RSA 2048, SHA256withRSA, like {@link SelfSignedCertificate}. Each replica gets a
 * certificate named for it (CN and the addresses it serves on), good for serving and for client
 * authentication, since a replica both serves its replica port and forwards to the leader's.
 */
public final class ReplicaCertificateAuthority {
    private final KeyPair keys;
    private final X509Certificate certificate;
    private final Clock clock;
    private final Duration validity;

    private ReplicaCertificateAuthority(KeyPair keys, X509Certificate certificate, Clock clock, Duration validity) {
        this.keys = keys;
        this.certificate = certificate;
        this.clock = clock;
        this.validity = validity;
    }

    /** A certificate and its PKCS#8 private key, as PEM. */
    public record Issued(String certificatePem, String privateKeyPem) {}

    public static ReplicaCertificateAuthority generate(String commonName, Duration validity, Clock clock) {
        KeyPair keys = rsa();
        X500Name subject = new X500Name("CN=" + commonName);
        return new ReplicaCertificateAuthority(keys, sign(subject, subject, keys, keys, true, List.of(), List.of(), validity, clock), clock, validity);
    }

    public String certificatePem() {
        return pem(certificate);
    }

    /** A replica's certificate: CN replicaName, with the DNS names and IP addresses it is reached at. */
    public Issued issue(String replicaName, List<String> dnsNames, List<String> ipAddresses) {
        KeyPair replica = rsa();
        X509Certificate issued = sign(new X500Name("CN=" + replicaName), new X500Name(certificate.getSubjectX500Principal().getName()),
                replica, keys, false, dnsNames, ipAddresses, validity, clock);
        return new Issued(pem(issued), pem(pkcs8(replica)));
    }

    /**
     * Writes the CA and a certificate for the replica into directory (ca.crt, NAME.crt, NAME.key; the key
     * 0600) and returns the trust that uses them.
     */
    public ReplicaTrust writeTrust(Path directory, String replicaName, Set<String> allowedNames, int port) {
        Issued issued = issue(replicaName, List.of("localhost"), List.of("127.0.0.1"));
        try {
            Files.createDirectories(directory);
            Path ca = directory.resolve("ca.crt");
            Files.writeString(ca, certificatePem());
            Path cert = directory.resolve(replicaName + ".crt");
            Files.writeString(cert, issued.certificatePem());
            Path key = directory.resolve(replicaName + ".key");
            dev.berth.manager.store.PrivateFiles.ownFile(key);
            Files.writeString(key, issued.privateKeyPem());
            return new ReplicaTrust(ca, cert, key, allowedNames, port);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static X509Certificate sign(X500Name subject, X500Name issuer, KeyPair subjectKeys, KeyPair issuerKeys, boolean ca,
                                        List<String> dnsNames, List<String> ipAddresses, Duration validity, Clock clock) {
        try {
            Instant now = clock.instant();
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(issuer, new BigInteger(64, new SecureRandom()),
                    Date.from(now.minus(Duration.ofMinutes(5))), Date.from(now.plus(validity)), subject, subjectKeys.getPublic());
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(ca));
            if (!ca) {
                List<GeneralName> names = new ArrayList<>();
                dnsNames.forEach(name -> names.add(new GeneralName(GeneralName.dNSName, name)));
                ipAddresses.forEach(ip -> names.add(new GeneralName(GeneralName.iPAddress, ip)));
                builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(names.toArray(GeneralName[]::new)));
                builder.addExtension(Extension.extendedKeyUsage, false,
                        new ExtendedKeyUsage(new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth}));
            }
            return new JcaX509CertificateConverter()
                    .getCertificate(builder.build(new JcaContentSignerBuilder("SHA256withRSA").build(issuerKeys.getPrivate())));
        } catch (GeneralSecurityException | OperatorCreationException | IOException e) {
            throw new IllegalStateException("cannot sign a replica certificate: " + e.getMessage(), e);
        }
    }

    private static KeyPair rsa() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048, new SecureRandom());
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Object pkcs8(KeyPair keys) {
        try {
            return new JcaPKCS8Generator(keys.getPrivate(), null);
        } catch (org.bouncycastle.util.io.pem.PemGenerationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String pem(Object object) {
        StringWriter text = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
            writer.writeObject(object);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return text.toString();
    }
}
