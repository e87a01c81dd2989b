package dev.berth.manager.security;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;

/**
 * OIDC token verification, as kube-apiserver's {@code --oidc-*} flags: issuer URL, client id (the
 * audience), where the signing keys come from (a JWKS URL, or a local JWKS file when jwksFile is set),
 * the claims naming the user and groups and the prefixes put before them.
 */
public record OidcOptions(URI issuer, String clientId, URI jwksUri, Path jwksFile, String usernameClaim,
                          String usernamePrefix, String groupsClaim, String groupsPrefix, Duration clockSkew) {
    public OidcOptions {
        if (issuer == null) throw new IllegalArgumentException("OIDC needs an issuer URL");
        if (clientId == null || clientId.isEmpty()) throw new IllegalArgumentException("OIDC needs a client id (the token audience)");
        if (jwksUri == null && jwksFile == null) throw new IllegalArgumentException("OIDC needs a JWKS URL or a JWKS file");
        if (usernameClaim == null || usernameClaim.isEmpty()) usernameClaim = "sub";
        if (usernamePrefix == null) usernamePrefix = usernameClaim.equals("email") ? "" : issuer + "#";
        if (usernamePrefix.equals("-")) usernamePrefix = "";
        if (groupsPrefix == null) groupsPrefix = "";
        if (clockSkew == null) clockSkew = Duration.ofSeconds(30);
    }
}
