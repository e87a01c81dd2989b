package dev.berth.chaos;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.virtualcluster.AttemptOverlaps;
import dev.berth.virtualcluster.PodInterval;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.awaitility.core.ConditionTimeoutException;

/**
 * The four invariants every drill ends with, judged from the manager's API (what users were told) and
 * from the virtual clusters' own pod-lifetime records (what really ran):
 * <ol>
 *   <li>no workload lost: every acknowledged Job still has its Workload;</li>
 *   <li>every acknowledged workload finished exactly once: Finished in the manager, and exactly one
 *       dispatch attempt of it ran a pod to success on the clusters;</li>
 *   <li>no two attempts of a workload ever ran at the same time, on any cluster;</li>
 *   <li>quota accounting equals the sum of the admitted workloads: each ClusterQueue's reservation per
 *       flavor and resource is the sum of the resourceUsage of its Workloads that hold quota (QuotaReserved
 *       and not Finished: as in Kueue, a finished Workload keeps its admission but no longer counts).</li>
 * </ol>
 */
public final class Invariants {
    private static final Duration QUOTA_SETTLE = Duration.ofSeconds(15);

    /** A job kind's API, for finding an acknowledged job again: {@code /apis/<group>/<version>} and its plural. */
    public record JobKind(String groupVersionPath, String plural) {
        String collection(String namespace) {
            return groupVersionPath + "/namespaces/" + namespace + "/" + plural;
        }
    }

    public static final JobKind BATCH_JOBS = new JobKind("/apis/batch/v1", "jobs");
    public static final JobKind PYTORCH_JOBS = new JobKind("/apis/kubeflow.org/v1", "pytorchjobs");

    private Invariants() {}

    public static DrillVerdict check(ManagerApi api, String namespace, List<String> acknowledgedJobs, List<PodInterval> pods) {
        return check(api, namespace, BATCH_JOBS, acknowledgedJobs, pods);
    }

    public static DrillVerdict check(ManagerApi api, String namespace, JobKind kind, List<String> acknowledgedJobs, List<PodInterval> pods) {
        List<String> violations = new ArrayList<>();
        List<JsonNode> workloads = api.workloads(namespace);
        for (String job : acknowledgedJobs) {
            JsonNode workload = workloads.stream().filter(w -> job.equals(ManagerApi.ownerJob(w))).findFirst().orElse(null);
            if (api.get(kind.collection(namespace) + "/" + job) == null || workload == null) {
                violations.add("lost: job " + job + " was acknowledged (201) but " + (workload == null ? "has no Workload" : "is gone"));
                continue;
            }
            finishedExactlyOnce(job, workload, pods).ifPresent(violations::add);
        }
        AttemptOverlaps.find(pods).forEach(overlap -> violations.add("overlap: " + overlap));
        quotaMatchesAdmitted(api, namespace).ifPresent(violations::add);
        return new DrillVerdict(acknowledgedJobs.size(), violations);
    }

    private static Optional<String> finishedExactlyOnce(String job, JsonNode workload, List<PodInterval> pods) {
        String name = workload.path("metadata").path("name").asText();
        if (!"True".equals(ManagerApi.condition(workload, "Finished"))) {
            return Optional.of("not finished: job " + job + " (workload " + name + ") conditions " + workload.path("status").path("conditions"));
        }
        Set<String> succeededAttempts = pods.stream()
                .filter(p -> name.equals(p.workload()) && "Succeeded".equals(p.endPhase()))
                .map(PodInterval::attemptId).filter(Objects::nonNull).collect(Collectors.toSet());
        if (succeededAttempts.size() != 1) {
            return Optional.of("not exactly once: workload " + name + " of job " + job + " succeeded in "
                    + succeededAttempts.size() + " attempt(s) " + succeededAttempts + " on the clusters");
        }
        return Optional.empty();
    }

    /** Reads usage and workloads until they agree (the two reads are not one snapshot); a lasting difference is a violation. */
    private static Optional<String> quotaMatchesAdmitted(ManagerApi api, String namespace) {
        AtomicReference<String> difference = new AtomicReference<>();
        try {
            await().atMost(QUOTA_SETTLE).pollInterval(Duration.ofMillis(500)).until(() -> {
                difference.set(quotaDifference(api, namespace));
                return difference.get() == null;
            });
            return Optional.empty();
        } catch (ConditionTimeoutException e) {
            return Optional.of("quota: " + difference.get());
        }
    }

    /** A description of where reservation and admitted workloads differ, or null when they agree. */
    static String quotaDifference(ManagerApi api, String namespace) {
        Map<String, BigDecimal> reserved = new TreeMap<>();
        for (JsonNode queue : api.clusterQueues()) {
            String cq = queue.path("metadata").path("name").asText();
            for (JsonNode flavor : queue.path("status").path("flavorsReservation")) {
                for (JsonNode resource : flavor.path("resources")) {
                    add(reserved, cq + "/" + flavor.path("name").asText() + "/" + resource.path("name").asText(), resource.path("total").asText("0"));
                }
            }
        }
        Map<String, BigDecimal> admitted = new TreeMap<>();
        for (JsonNode workload : api.workloads(namespace)) {
            if (!"True".equals(ManagerApi.condition(workload, "QuotaReserved")) || "True".equals(ManagerApi.condition(workload, "Finished"))) {
                continue;
            }
            JsonNode admission = workload.path("status").path("admission");
            String cq = admission.path("clusterQueue").asText();
            for (JsonNode podSet : admission.path("podSetAssignments")) {
                podSet.path("resourceUsage").fields().forEachRemaining(usage -> add(admitted,
                        cq + "/" + podSet.path("flavors").path(usage.getKey()).asText() + "/" + usage.getKey(), usage.getValue().asText()));
            }
        }
        reserved.values().removeIf(v -> v.signum() == 0);
        admitted.values().removeIf(v -> v.signum() == 0);
        return reserved.equals(admitted) ? null : "ClusterQueue reservations " + plain(reserved)
                + " differ from the sum of the workloads holding quota " + plain(admitted);
    }

    private static Map<String, String> plain(Map<String, BigDecimal> totals) {
        Map<String, String> result = new TreeMap<>();
        totals.forEach((key, value) -> result.put(key, value.toPlainString()));
        return result;
    }

    private static void add(Map<String, BigDecimal> totals, String key, String quantity) {
        BigDecimal amount = Quantity.getAmountInBytes(new Quantity(quantity));
        totals.merge(key, amount.stripTrailingZeros(), (a, b) -> a.add(b).stripTrailingZeros());
    }
}
