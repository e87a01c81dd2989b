package dev.berth.manager.security.edge;

import dev.berth.manager.security.Authenticator;
import dev.berth.manager.security.OidcAuthenticator;
import dev.berth.manager.security.RbacPolicySource;
import dev.berth.manager.security.SecurityOptions;
import dev.berth.manager.security.TokenFile;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.PemKeyCertOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Builds the API's security and its HTTP server options from {@link SecurityOptions}. */
public final class SecureServer {
    private SecureServer() {}

    public static ApiSecurity security(SecurityOptions options, RbacPolicySource policy, Clock clock) {
        List<Authenticator> authenticators = new ArrayList<>();
        try {
            if (options.tokenFile().isPresent()) authenticators.add(TokenFile.parse(Files.readString(options.tokenFile().get())));
            options.oidc().ifPresent(oidc -> authenticators.add(new OidcAuthenticator(oidc, clock)));
            return new ApiSecurity(Authenticator.firstOf(authenticators), policy,
                    new UserRateLimits(options.tenantRate(), options.adminRate()), new AuditLog(options.auditLog()), clock, options.edge());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot set up API security: " + e.getMessage(), e);
        }
    }

    /**
     * HTTPS from PEM files when TLS is configured, plain HTTP otherwise. The TLS handshake must finish
     * within the header read timeout; {@link ConnectionTimeouts} bounds the rest.
     */
    public static HttpServerOptions serverOptions(SecurityOptions options) {
        HttpServerOptions server = new HttpServerOptions();
        server.setSslHandshakeTimeout(options.edge().headerReadTimeout().toMillis()).setSslHandshakeTimeoutUnit(TimeUnit.MILLISECONDS);
        options.tls().ifPresent(tls -> server.setSsl(true).setKeyCertOptions(new PemKeyCertOptions()
                .setCertPath(tls.certificate().toString()).setKeyPath(tls.key().toString())));
        return server;
    }
}
