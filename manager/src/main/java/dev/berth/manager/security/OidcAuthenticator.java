package dev.berth.manager.security;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.util.DefaultResourceRetriever;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.BadJWTException;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import java.io.IOException;
import java.text.ParseException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Verifies OIDC ID tokens: an RS256 or ES256 signature by a key of the issuer's JWKS (fetched and
 * cached, refetched when a token names an unknown key id), then iss, aud, exp and nbf against the
 * injected clock with a small skew. A token that fails any check authenticates nobody.
 * Blocking on a JWKS fetch: call it off the event loop.
 */
public final class OidcAuthenticator implements Authenticator {
    /**
     * At most one JWKS refetch per interval, however many tokens name unknown key ids: a rotated key
     * is picked up within seconds, and forged key ids cannot hammer the issuer.
     */
    static final long JWKS_REFETCH_INTERVAL_MILLIS = 5_000;
    static final int JWKS_TIMEOUT_MILLIS = 5_000;
    static final int JWKS_SIZE_LIMIT_BYTES = 51_200;

    private final OidcOptions options;
    private final Clock clock;
    private final DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();

    public OidcAuthenticator(OidcOptions options, Clock clock) {
        this.options = options;
        this.clock = clock;
        processor.setJWSKeySelector(new JWSVerificationKeySelector<>(Set.of(JWSAlgorithm.RS256, JWSAlgorithm.ES256), keys(options)));
        processor.setJWTClaimsSetVerifier((claims, context) -> verify(claims));
    }

    private static JWKSource<SecurityContext> keys(OidcOptions options) {
        try {
            if (options.jwksFile() != null) return new ImmutableJWKSet<>(JWKSet.load(options.jwksFile().toFile()));
            return JWKSourceBuilder.<SecurityContext>create(options.jwksUri().toURL(),
                            new DefaultResourceRetriever(JWKS_TIMEOUT_MILLIS, JWKS_TIMEOUT_MILLIS, JWKS_SIZE_LIMIT_BYTES))
                    .retrying(true).rateLimited(JWKS_REFETCH_INTERVAL_MILLIS).build();
        } catch (IOException | ParseException e) {
            throw new IllegalArgumentException("cannot read the OIDC JWKS file " + options.jwksFile() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public Optional<UserInfo> authenticate(String bearerToken) {
        if (bearerToken.chars().filter(c -> c == '.').count() != 2) return Optional.empty();
        try {
            return Optional.of(user(processor.process(bearerToken, null)));
        } catch (Exception invalid) {
            return Optional.empty();
        }
    }

    private void verify(JWTClaimsSet claims) throws BadJWTException {
        if (!options.issuer().toString().equals(claims.getIssuer())) throw new BadJWTException("issuer");
        if (claims.getAudience() == null || !claims.getAudience().contains(options.clientId())) throw new BadJWTException("audience");
        Instant now = clock.instant();
        Date expires = claims.getExpirationTime();
        if (expires == null || !now.isBefore(expires.toInstant().plus(options.clockSkew()))) throw new BadJWTException("expired");
        Date notBefore = claims.getNotBeforeTime();
        if (notBefore != null && now.isBefore(notBefore.toInstant().minus(options.clockSkew()))) throw new BadJWTException("not yet valid");
    }

    private UserInfo user(JWTClaimsSet claims) throws ParseException, BadJWTException {
        String name = claims.getStringClaim(options.usernameClaim());
        if (name == null || name.isEmpty()) throw new BadJWTException("no username claim");
        List<String> groups = new ArrayList<>();
        if (options.groupsClaim() != null && claims.getClaim(options.groupsClaim()) != null) {
            Object value = claims.getClaim(options.groupsClaim());
            List<String> raw = value instanceof String single ? List.of(single) : claims.getStringListClaim(options.groupsClaim());
            for (String group : raw) groups.add(options.groupsPrefix() + group);
        }
        return new UserInfo(options.usernamePrefix() + name, claims.getSubject() == null ? "" : claims.getSubject(), groups);
    }

}
