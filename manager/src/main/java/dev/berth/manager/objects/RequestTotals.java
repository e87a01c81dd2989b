package dev.berth.manager.objects;

import dev.berth.manager.model.Amounts;
import dev.berth.manager.model.Quantity;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The whole of what a workload requests, per resource: each pod set's per-pod requests times its pod
 * count, summed over the pod sets. Computed exactly; a total a long cannot hold is refused (422) at
 * the field that multiplies it (the pod set's count, a Job's parallelism, a JobSet's replicas), so the
 * quota arithmetic downstream never sees an amount it cannot represent.
 */
final class RequestTotals {
    private final Map<String, Long> totals = new TreeMap<>();

    /** Adds {@code count} pods of {@code perPod}; a cause at {@code countPath} when a total overflows. */
    void add(Map<String, Long> perPod, long count, String countPath, List<FieldCause> into) {
        for (Map.Entry<String, Long> request : perPod.entrySet()) {
            String resource = request.getKey();
            try {
                long podSetTotal = Math.multiplyExact(request.getValue(), count);
                totals.put(resource, Math.addExact(totals.getOrDefault(resource, 0L), podSetTotal));
            } catch (ArithmeticException tooLarge) {
                totals.put(resource, Amounts.MAX);
                into.add(FieldCause.invalid(countPath, "Invalid value: " + count + ": " + count + " pods requesting "
                        + Quantity.format(resource, request.getValue()) + " " + resource + " each bring the workload's total "
                        + resource + " above the largest quantity Berth can account (" + Quantity.format(resource, Amounts.MAX) + ")"));
                return;
            }
        }
    }

    Map<String, Long> totals() {
        return Map.copyOf(totals);
    }
}
