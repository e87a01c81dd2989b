package dev.berth.manager.security;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.manager.model.Quantity;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The quota invariants, read from ClusterQueue objects as a client sees them: for every queue, flavor
 * and resource, reserved and admitted usage are never negative and never above nominal quota plus
 * borrowing limit (when one is set); within a cohort, the queues together never use more than their
 * nominal quotas together. Returns every violation found.
 */
final class QuotaInvariants {
    private QuotaInvariants() {}

    static List<String> violations(JsonNode clusterQueueList) {
        List<String> violations = new ArrayList<>();
        Map<String, BigDecimal> cohortUsage = new HashMap<>();
        Map<String, BigDecimal> cohortNominal = new HashMap<>();
        for (JsonNode queue : clusterQueueList.path("items")) {
            String name = queue.path("metadata").path("name").asText();
            String cohort = queue.path("spec").path("cohortName").asText(name);
            Map<String, BigDecimal[]> limits = limits(queue.path("spec"));
            limits.forEach((key, limit) -> cohortNominal.merge(cohort + " " + key, limit[0], BigDecimal::add));
            for (String field : List.of("flavorsReservation", "flavorsUsage")) {
                for (JsonNode flavor : queue.path("status").path(field)) {
                    for (JsonNode resource : flavor.path("resources")) {
                        String key = flavor.path("name").asText() + "/" + resource.path("name").asText();
                        String where = name + " " + field + " " + key;
                        BigDecimal total = quantity(resource.path("total"), where, violations);
                        BigDecimal borrowed = quantity(resource.path("borrowed"), where, violations);
                        if (total.signum() < 0 || borrowed.signum() < 0) violations.add(where + ": negative usage " + resource);
                        BigDecimal[] limit = limits.get(key);
                        if (limit == null) {
                            if (total.signum() > 0) violations.add(where + ": usage " + total + " of a flavor/resource with no quota");
                            continue;
                        }
                        if (limit[1] != null && total.compareTo(limit[0].add(limit[1])) > 0) {
                            violations.add(where + ": usage " + total + " above nominal " + limit[0] + " + borrowing limit " + limit[1]);
                        }
                        if (field.equals("flavorsReservation")) cohortUsage.merge(cohort + " " + key, total, BigDecimal::add);
                    }
                }
            }
        }
        cohortUsage.forEach((key, used) -> {
            BigDecimal nominal = cohortNominal.getOrDefault(key, BigDecimal.ZERO);
            if (used.compareTo(nominal) > 0) violations.add("cohort " + key + ": reserved " + used + " above the nominal quotas " + nominal);
        });
        return violations;
    }

    /** flavor/resource to {nominalQuota, borrowingLimit or null}. */
    private static Map<String, BigDecimal[]> limits(JsonNode spec) {
        Map<String, BigDecimal[]> limits = new HashMap<>();
        for (JsonNode group : spec.path("resourceGroups")) {
            for (JsonNode flavor : group.path("flavors")) {
                for (JsonNode resource : flavor.path("resources")) {
                    BigDecimal nominal = Quantity.parse(resource.path("nominalQuota").asText("0"));
                    BigDecimal borrowing = resource.has("borrowingLimit") ? Quantity.parse(resource.path("borrowingLimit").asText()) : null;
                    limits.put(flavor.path("name").asText() + "/" + resource.path("name").asText(), new BigDecimal[] {nominal, borrowing});
                }
            }
        }
        return limits;
    }

    private static BigDecimal quantity(JsonNode value, String where, List<String> violations) {
        if (value.isMissingNode() || value.isNull()) return BigDecimal.ZERO;
        try {
            return Quantity.parse(value.asText());
        } catch (RuntimeException e) {
            violations.add(where + ": unreadable quantity " + value);
            return BigDecimal.ZERO;
        }
    }
}
