package dev.berth.manager.security.edge;

import dev.berth.manager.security.SecurityOptions.RateLimit;
import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.github.resilience4j.ratelimiter.internal.AtomicRateLimiter;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;

/**
 * One rate limiter per source address, for requests that are not (yet) authenticated. The addresses
 * remembered are bounded: past {@link #MAX_ADDRESSES}, the one least recently seen is forgotten (and
 * starts again with a full burst if it comes back), so many addresses cannot grow the map without
 * bound. Behind a proxy every client shares the proxy's address.
 */
final class AddressRateLimits {
    static final int MAX_ADDRESSES = 10_000;
    private final RateLimiterConfig config;
    private final Map<String, RateLimiter> limiters = new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, RateLimiter> eldest) {
            return size() > MAX_ADDRESSES;
        }
    };

    AddressRateLimits(RateLimit limit) {
        this.config = RateLimiterConfig.custom()
                .limitForPeriod(limit.burst())
                .limitRefreshPeriod(Duration.ofNanos(1_000_000_000L * limit.burst() / limit.perSecond()))
                .timeoutDuration(Duration.ZERO)
                .build();
    }

    /** Empty when the request may go ahead; otherwise the seconds to wait (at least 1). */
    OptionalLong acquire(String address) {
        RateLimiter limiter;
        synchronized (limiters) {
            limiter = limiters.computeIfAbsent(address, a -> RateLimiter.of("anonymous:" + a, config));
        }
        if (limiter.acquirePermission()) return OptionalLong.empty();
        long nanos = limiter instanceof AtomicRateLimiter atomic ? atomic.getDetailedMetrics().getNanosToWait() : 1_000_000_000L;
        return OptionalLong.of(Math.max(1, (nanos + 999_999_999L) / 1_000_000_000L));
    }
}
