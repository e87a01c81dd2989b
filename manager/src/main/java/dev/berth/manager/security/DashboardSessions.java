package dev.berth.manager.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;

/**
 * The dashboard's sign-in without a pasted token. A caller holding a bearer token mints a one-time
 * code ({@link #mint}); whoever opens the link with that code exchanges it, once and within
 * {@link #CODE_LIFETIME}, for a browser session ({@link #redeem}); the session stands for the same
 * bearer token, kept here in memory and never sent to the browser, so every request of the session is
 * authenticated afresh (a revoked or expired token ends it) and authorized by RBAC as the token's user.
 *
 * <p>Codes and session ids are 256 random bits; only their SHA-256 digests are kept, so a heap dump
 * yields nothing a browser could present. Both kinds are bounded in number (the oldest give way) and
 * dropped once expired. Pure: the clock is injected, nothing here does I/O. Thread-safe.
 */
public final class DashboardSessions {
    public static final Duration CODE_LIFETIME = Duration.ofMinutes(10);
    public static final Duration SESSION_LIFETIME = Duration.ofHours(8);
    static final int MAX_CODES = 1_000;
    static final int MAX_SESSIONS = 10_000;

    private final Clock clock;
    private final SecureRandom random = new SecureRandom();
    private final Map<String, Grant> codes = new HashMap<>();
    private final Map<String, Grant> sessions = new HashMap<>();

    /** What a code or a session stands for: the bearer token, until a moment. */
    private record Grant(String bearerToken, Instant expires) {
        @Override
        public String toString() {
            return "Grant[expires=" + expires + "]";
        }
    }

    /** A code just minted, and when it stops working. */
    public record Code(String value, Instant expires) {
        @Override
        public String toString() {
            return "Code[expires=" + expires + "]";
        }
    }

    /** A session just opened: the id the browser keeps in its cookie, and how long it lasts. */
    public record Session(String id, Duration lifetime) {
        @Override
        public String toString() {
            return "Session[lifetime=" + lifetime + "]";
        }
    }

    public DashboardSessions(Clock clock) {
        this.clock = clock;
    }

    /** A fresh one-time code standing for bearerToken, usable once within {@link #CODE_LIFETIME}. */
    public synchronized Code mint(String bearerToken) {
        Instant now = clock.instant();
        dropExpired(codes, now);
        String code = newSecret();
        Instant expires = now.plus(CODE_LIFETIME);
        putBounded(codes, digest(code), new Grant(bearerToken, expires), MAX_CODES);
        return new Code(code, expires);
    }

    /** Exchanges a code for a session: empty when the code is unknown, already used or expired. The code is spent either way. */
    public synchronized Optional<Session> redeem(String code) {
        if (code == null || code.isEmpty()) return Optional.empty();
        Instant now = clock.instant();
        Grant grant = codes.remove(digest(code));
        if (grant == null || !now.isBefore(grant.expires())) return Optional.empty();
        String id = newSecret();
        putBounded(sessions, digest(id), new Grant(grant.bearerToken(), now.plus(SESSION_LIFETIME)), MAX_SESSIONS);
        return Optional.of(new Session(id, SESSION_LIFETIME));
    }

    /** The bearer token a live session stands for; empty for an unknown or expired session id. */
    public synchronized Optional<String> bearerToken(String sessionId) {
        if (sessionId == null || sessionId.isEmpty()) return Optional.empty();
        String key = digest(sessionId);
        Grant grant = sessions.get(key);
        if (grant == null) return Optional.empty();
        if (!clock.instant().isBefore(grant.expires())) {
            sessions.remove(key);
            return Optional.empty();
        }
        return Optional.of(grant.bearerToken());
    }

    /** Ends a session (sign-out); unknown ids are ignored. */
    public synchronized void end(String sessionId) {
        if (sessionId != null) sessions.remove(digest(sessionId));
    }

    private static void dropExpired(Map<String, Grant> grants, Instant now) {
        grants.values().removeIf(grant -> !now.isBefore(grant.expires()));
    }

    /** Keeps at most max entries: the ones that expire first give way (the oldest, as lifetimes are fixed). */
    private static void putBounded(Map<String, Grant> grants, String key, Grant grant, int max) {
        while (grants.size() >= max) {
            Iterator<Map.Entry<String, Grant>> entries = grants.entrySet().iterator();
            Map.Entry<String, Grant> oldest = entries.next();
            for (Map.Entry<String, Grant> entry : grants.entrySet()) {
                if (entry.getValue().expires().isBefore(oldest.getValue().expires())) oldest = entry;
            }
            grants.remove(oldest.getKey());
        }
        grants.put(key, grant);
    }

    private String newSecret() {
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static String digest(String secret) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
            return Base64.getEncoder().encodeToString(hash);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
