package dev.berth.manager.security;

import java.util.Optional;

/** Turns a bearer token into a caller; empty when the token is not one this authenticator knows or it is invalid. */
public interface Authenticator {
    Optional<UserInfo> authenticate(String bearerToken);

    /** The first authenticator that recognizes the token wins. */
    static Authenticator firstOf(java.util.List<Authenticator> authenticators) {
        return token -> {
            for (Authenticator authenticator : authenticators) {
                Optional<UserInfo> user = authenticator.authenticate(token);
                if (user.isPresent()) return user;
            }
            return Optional.empty();
        };
    }
}
