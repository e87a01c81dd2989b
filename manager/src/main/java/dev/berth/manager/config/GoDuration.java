package dev.berth.manager.config;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as Kueue's Configuration writes them (Go's time.ParseDuration, metav1.Duration):
 * "5m", "1h30m", "1.5h", "300ms", "0s", "-1m". Units ns, us (µs), ms, s, m, h; a bare "0" is zero.
 */
public final class GoDuration {
    private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d*)?|\\.\\d+)(ns|us|µs|μs|ms|s|m|h)");

    private GoDuration() {}

    /** The duration, or null when the text is not one. */
    public static Duration parse(String text) {
        String value = text.trim();
        if (value.isEmpty()) return null;
        boolean negative = value.startsWith("-");
        if (negative || value.startsWith("+")) value = value.substring(1);
        if (value.equals("0")) return Duration.ZERO;
        Matcher matcher = PART.matcher(value);
        int at = 0;
        BigDecimal nanos = BigDecimal.ZERO;
        while (at < value.length()) {
            if (!matcher.find(at) || matcher.start() != at) return null;
            nanos = nanos.add(new BigDecimal(matcher.group(1).startsWith(".") ? "0" + matcher.group(1) : matcher.group(1))
                    .multiply(BigDecimal.valueOf(nanosPer(matcher.group(2)))));
            at = matcher.end();
        }
        if (at == 0) return null;
        Duration duration = Duration.ofNanos(nanos.longValue());
        return negative ? duration.negated() : duration;
    }

    /** Go's String() form, shortened: 90s is "1m30s", 0 is "0s". */
    static String format(Duration duration) {
        if (duration.isZero()) return "0s";
        StringBuilder text = new StringBuilder(duration.isNegative() ? "-" : "");
        Duration rest = duration.abs();
        if (rest.toHours() > 0) text.append(rest.toHours()).append('h');
        if (rest.toMinutesPart() > 0) text.append(rest.toMinutesPart()).append('m');
        if (rest.toSecondsPart() > 0 || rest.toMillisPart() > 0) {
            text.append(rest.toSecondsPart());
            if (rest.toMillisPart() > 0) text.append('.').append(String.format("%03d", rest.toMillisPart()).replaceAll("0+$", ""));
            text.append('s');
        }
        return text.toString();
    }

    private static long nanosPer(String unit) {
        return switch (unit) {
            case "ns" -> 1L;
            case "us", "µs", "μs" -> 1_000L;
            case "ms" -> 1_000_000L;
            case "s" -> 1_000_000_000L;
            case "m" -> 60_000_000_000L;
            default -> 3_600_000_000_000L;
        };
    }
}
