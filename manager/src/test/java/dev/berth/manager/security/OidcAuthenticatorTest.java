package dev.berth.manager.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Date;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** OIDC tokens against a local JWKS file and a fixed clock: valid ones accepted, every broken one authenticates nobody. */
class OidcAuthenticatorTest {
    static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
    static final String ISSUER = "https://issuer.example";
    static RSAKey rsa;
    static ECKey ec;
    static RSAKey stranger;
    static OidcAuthenticator oidc;

    @BeforeAll
    static void keys(@TempDir Path dir) throws Exception {
        rsa = new RSAKeyGenerator(2048).keyID("rsa").generate();
        ec = new ECKeyGenerator(Curve.P_256).keyID("ec").generate();
        stranger = new RSAKeyGenerator(2048).keyID("rsa").generate();
        Path jwks = dir.resolve("jwks.json");
        Files.writeString(jwks, new JWKSet(List.of(rsa.toPublicJWK(), ec.toPublicJWK())).toString());
        oidc = new OidcAuthenticator(new OidcOptions(URI.create(ISSUER), "berth", null, jwks, "email", null, "groups", "oidc:",
                Duration.ofSeconds(30)), Clock.fixed(NOW, ZoneOffset.UTC));
    }

    static JWTClaimsSet.Builder claims() {
        return new JWTClaimsSet.Builder().issuer(ISSUER).audience("berth").subject("u1").claim("email", "alice@example.com")
                .claim("groups", List.of("team-a")).expirationTime(Date.from(NOW.plusSeconds(300)));
    }

    static String rs256(RSAKey key, JWTClaimsSet claims) throws Exception {
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID()).build(), claims);
        jwt.sign(new RSASSASigner(key));
        return jwt.serialize();
    }

    @Test
    void validTokensAreAccepted() throws Exception {
        UserInfo user = oidc.authenticate(rs256(rsa, claims().build())).orElseThrow();
        assertThat(user.name()).isEqualTo("alice@example.com");
        assertThat(user.groups()).contains("oidc:team-a");
        SignedJWT es = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).keyID("ec").build(), claims().build());
        es.sign(new ECDSASigner(ec));
        assertThat(oidc.authenticate(es.serialize())).isPresent();
    }

    @Test
    void brokenTokensAuthenticateNobody() throws Exception {
        assertThat(oidc.authenticate(rs256(rsa, claims().expirationTime(Date.from(NOW.minusSeconds(60))).build()))).as("expired").isEmpty();
        assertThat(oidc.authenticate(rs256(rsa, claims().notBeforeTime(Date.from(NOW.plusSeconds(600))).build()))).as("not yet valid").isEmpty();
        assertThat(oidc.authenticate(rs256(rsa, claims().audience("other").build()))).as("wrong aud").isEmpty();
        assertThat(oidc.authenticate(rs256(rsa, claims().issuer("https://evil.example").build()))).as("wrong iss").isEmpty();
        assertThat(oidc.authenticate(rs256(stranger, claims().build()))).as("bad signature").isEmpty();
        assertThat(oidc.authenticate("not.a.jwt")).isEmpty();
        assertThat(oidc.authenticate(rs256(rsa, claims().expirationTime(Date.from(NOW.minusSeconds(10))).build()))).as("within skew").isPresent();
    }
}
