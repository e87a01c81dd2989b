package dev.berth.manager.security.edge;

import dev.berth.manager.security.SecurityOptions.RateLimit;
import dev.berth.manager.security.UserInfo;
import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.github.resilience4j.ratelimiter.RateLimiterRegistry;
import io.github.resilience4j.ratelimiter.internal.AtomicRateLimiter;
import java.time.Duration;
import java.util.OptionalLong;

/**
 * One resilience4j RateLimiter per user: burst permits refilled every burst/perSecond seconds, so a
 * user averages perSecond requests and may send burst at once. Admins get their own, higher limit.
 */
public final class UserRateLimits {
    private final RateLimiterRegistry registry = RateLimiterRegistry.ofDefaults();
    private final RateLimiterConfig tenant;
    private final RateLimiterConfig admin;

    public UserRateLimits(RateLimit tenant, RateLimit admin) {
        this.tenant = config(tenant);
        this.admin = config(admin);
    }

    private static RateLimiterConfig config(RateLimit limit) {
        return RateLimiterConfig.custom()
                .limitForPeriod(limit.burst())
                .limitRefreshPeriod(Duration.ofNanos(1_000_000_000L * limit.burst() / limit.perSecond()))
                .timeoutDuration(Duration.ZERO)
                .build();
    }

    /** Empty when the request may go ahead; otherwise the seconds to wait (at least 1). */
    public OptionalLong acquire(UserInfo user) {
        String key = (user.isAdmin() ? "admin:" : "user:") + user.name();
        RateLimiter limiter = registry.rateLimiter(key, user.isAdmin() ? admin : tenant);
        if (limiter.acquirePermission()) return OptionalLong.empty();
        long nanos = limiter instanceof AtomicRateLimiter atomic ? atomic.getDetailedMetrics().getNanosToWait() : 1_000_000_000L;
        return OptionalLong.of(Math.max(1, (nanos + 999_999_999L) / 1_000_000_000L));
    }
}
