package dev.berth.manager.model;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kubernetes resource quantities. Scheduling arithmetic works on canonical longs, as Kueue does:
 * cpu in millicores, every other resource in whole units (bytes for memory), rounded up.
 */
public final class Quantity {
    private static final Pattern GRAMMAR =
            Pattern.compile("^([+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+))(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?[0-9]+)?$");
    private static final BigDecimal MAX_LONG = BigDecimal.valueOf(Long.MAX_VALUE);
    private static final String[] DECIMAL_SUFFIXES = {"", "k", "M", "G", "T", "P", "E"};
    private static final String[] BINARY_SUFFIXES = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};

    private Quantity() {}

    /** Parses a quantity such as {@code 500m}, {@code 2}, {@code 16Gi}, {@code 1e3}. */
    public static BigDecimal parse(String text) {
        if (text == null) throw new InvalidQuantityException("quantity is missing");
        String trimmed = text.trim();
        if (trimmed.isEmpty() || trimmed.length() > 64) throw new InvalidQuantityException("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
        Matcher matcher = GRAMMAR.matcher(trimmed);
        if (!matcher.matches()) {
            throw new InvalidQuantityException("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
        }
        BigDecimal number = new BigDecimal(matcher.group(1));
        String suffix = matcher.group(2);
        if (suffix == null || suffix.isEmpty()) return number;
        return switch (suffix) {
            case "n" -> number.movePointLeft(9);
            case "u" -> number.movePointLeft(6);
            case "m" -> number.movePointLeft(3);
            case "k" -> number.movePointRight(3);
            case "M" -> number.movePointRight(6);
            case "G" -> number.movePointRight(9);
            case "T" -> number.movePointRight(12);
            case "P" -> number.movePointRight(15);
            case "E" -> number.movePointRight(18);
            case "Ki" -> number.multiply(BigDecimal.valueOf(1L << 10));
            case "Mi" -> number.multiply(BigDecimal.valueOf(1L << 20));
            case "Gi" -> number.multiply(BigDecimal.valueOf(1L << 30));
            case "Ti" -> number.multiply(BigDecimal.valueOf(1L << 40));
            case "Pi" -> number.multiply(BigDecimal.valueOf(1L << 50));
            case "Ei" -> number.multiply(BigDecimal.valueOf(1L << 60));
            default -> {
                int exponent = Integer.parseInt(suffix.substring(1));
                if (Math.abs(exponent) > 30) throw new InvalidQuantityException("quantity exponent out of range");
                yield number.scaleByPowerOfTen(exponent);
            }
        };
    }

    /** The canonical amount of a resource: millicores for cpu, whole units otherwise, rounded up. */
    public static long amount(String resource, String text) {
        BigDecimal value = parse(text);
        if (value.signum() < 0) throw new InvalidQuantityException("must be greater than or equal to 0");
        BigDecimal scaled = isMilliResource(resource) ? value.movePointRight(3) : value;
        BigDecimal rounded = scaled.setScale(0, RoundingMode.CEILING);
        if (rounded.compareTo(MAX_LONG) > 0) throw new InvalidQuantityException("quantity is too large");
        return rounded.longValueExact();
    }

    /** The real quantity a canonical amount stands for: {@code 500} millicores of cpu is 0.5. */
    public static BigDecimal decimal(String resource, long amount) {
        BigDecimal value = BigDecimal.valueOf(amount);
        return isMilliResource(resource) ? value.movePointLeft(3) : value;
    }

    /**
     * The canonical amount of a real quantity, rounded up as Kueue does (MilliValue for cpu, Value
     * otherwise); a negative quantity is zero and one too large for a long is {@link Amounts#MAX}.
     */
    public static long canonical(String resource, BigDecimal value) {
        if (value.signum() <= 0) return 0L;
        BigDecimal scaled = isMilliResource(resource) ? value.movePointRight(3) : value;
        BigDecimal rounded = scaled.setScale(0, RoundingMode.CEILING);
        return rounded.compareTo(BigDecimal.valueOf(Amounts.MAX)) > 0 ? Amounts.MAX : rounded.longValueExact();
    }

    /** Formats a canonical amount the way Kubernetes prints it: {@code 500m}, {@code 2}, {@code 16Gi}. */
    public static String format(String resource, long amount) {
        if (isMilliResource(resource)) {
            if (amount % 1000 != 0) return amount + "m";
            return formatDecimal(amount / 1000);
        }
        if (isBinaryResource(resource)) return formatBinary(amount);
        return formatDecimal(amount);
    }

    private static boolean isMilliResource(String resource) {
        return "cpu".equals(resource);
    }

    private static boolean isBinaryResource(String resource) {
        return "memory".equals(resource) || "ephemeral-storage".equals(resource) || resource.startsWith("hugepages-");
    }

    private static String formatDecimal(long value) {
        if (value == 0) return "0";
        int index = 0;
        long scaled = value;
        while (index < DECIMAL_SUFFIXES.length - 1 && scaled % 1000 == 0) {
            scaled /= 1000;
            index++;
        }
        return scaled + DECIMAL_SUFFIXES[index];
    }

    private static String formatBinary(long value) {
        if (value == 0) return "0";
        if (Math.abs(value) < 1024 || value % 1024 != 0) return formatDecimal(value);
        int index = 0;
        long scaled = value;
        while (index < BINARY_SUFFIXES.length - 1 && scaled % 1024 == 0) {
            scaled /= 1024;
            index++;
        }
        return scaled + BINARY_SUFFIXES[index];
    }
}
