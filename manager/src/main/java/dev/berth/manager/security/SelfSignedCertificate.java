package dev.berth.manager.security;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A self-signed serving certificate (RSA 2048, SHA256withRSA) for the quickstart and the tests, as
 * PEM text: the certificate (which is also the CA a kubeconfig trusts) and its PKCS#8 private key.
 */
public record SelfSignedCertificate(String certificatePem, String privateKeyPem, X509Certificate certificate) {
    public static SelfSignedCertificate generate(String commonName, List<String> dnsNames, List<String> ipAddresses,
                                                 Duration validity, Clock clock) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048, new SecureRandom());
            KeyPair keys = generator.generateKeyPair();
            Instant now = clock.instant();
            X500Name subject = new X500Name("CN=" + commonName);
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(subject, new BigInteger(64, new SecureRandom()),
                    Date.from(now.minus(Duration.ofMinutes(5))), Date.from(now.plus(validity)), subject, keys.getPublic());
            List<GeneralName> names = new ArrayList<>();
            dnsNames.forEach(name -> names.add(new GeneralName(GeneralName.dNSName, name)));
            ipAddresses.forEach(ip -> names.add(new GeneralName(GeneralName.iPAddress, ip)));
            builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(names.toArray(GeneralName[]::new)));
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
            X509Certificate certificate = new JcaX509CertificateConverter()
                    .getCertificate(builder.build(new JcaContentSignerBuilder("SHA256withRSA").build(keys.getPrivate())));
            return new SelfSignedCertificate(pem(certificate), pem(new org.bouncycastle.openssl.jcajce.JcaPKCS8Generator(keys.getPrivate(), null)),
                    certificate);
        } catch (NoSuchAlgorithmException | OperatorCreationException | java.security.cert.CertificateException | IOException e) {
            throw new IllegalStateException("cannot generate a self-signed certificate: " + e.getMessage(), e);
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
