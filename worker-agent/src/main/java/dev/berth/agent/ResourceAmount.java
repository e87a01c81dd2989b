package dev.berth.agent;

import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Comparator;
import java.util.List;

/**
 * Resource arithmetic on canonical longs, as Kueue does: cpu in millicores, every other resource in
 * whole units (bytes for memory), rounded up.
 */
public final class ResourceAmount {
    /** The resources the agent accounts for on nodes, GPUs first: the order reasons are checked in. */
    public static final List<String> TRACKED = List.of("nvidia.com/gpu", "cpu", "memory", "pods");

    /** Orders resource names GPUs first, then cpu, memory, pods, then the rest alphabetically. */
    public static final Comparator<String> REASON_ORDER = Comparator
            .<String>comparingInt(r -> TRACKED.contains(r) ? TRACKED.indexOf(r) : TRACKED.size())
            .thenComparing(Comparator.naturalOrder());

    private ResourceAmount() {}

    /** The canonical amount of a quantity string such as {@code 500m}, {@code 16Gi}, {@code 8}. */
    public static long parse(String resource, String quantity) {
        BigDecimal value = Quantity.getAmountInBytes(new Quantity(quantity));
        if ("cpu".equals(resource)) value = value.movePointRight(3);
        return value.setScale(0, RoundingMode.CEILING).longValueExact();
    }

    /** The canonical amount of a fabric8 quantity. */
    public static long parse(String resource, Quantity quantity) {
        return parse(resource, quantity.toString());
    }

    /** Formats a canonical amount the way Kubernetes prints it: {@code 500m}, {@code 2}, {@code 16Gi}. */
    public static String format(String resource, long amount) {
        if ("cpu".equals(resource)) {
            return amount % 1000 == 0 ? Long.toString(amount / 1000) : amount + "m";
        }
        if ("memory".equals(resource) || resource.endsWith("storage")) {
            String[] suffixes = {"", "Ki", "Mi", "Gi", "Ti", "Pi"};
            long value = amount;
            int index = 0;
            while (value != 0 && value % 1024 == 0 && index < suffixes.length - 1) {
                value /= 1024;
                index++;
            }
            return value + suffixes[index];
        }
        return Long.toString(amount);
    }
}
