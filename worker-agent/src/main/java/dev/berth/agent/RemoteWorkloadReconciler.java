package dev.berth.agent;

import dev.berth.protocol.Labels;
import dev.berth.protocol.crd.RemoteWorkload;
import dev.berth.protocol.crd.RemoteWorkloadPhase;
import dev.berth.protocol.crd.RemoteWorkloadSpec;
import dev.berth.protocol.crd.PodSetPlacement;
import dev.berth.protocol.crd.RemoteWorkloadStatus;
import dev.berth.protocol.Provisioning;
import dev.berth.protocol.crd.ProvisioningProgress;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.LoggerFactory;

/**
 * One reconcile pass over every RemoteWorkload in scope, in named steps:
 * snapshot the cluster; remove objects whose RemoteWorkload or attempt is gone; for running attempts,
 * stop expired leases, reserve capacity for pods not bound yet and mirror status; then for new and
 * pending attempts (highest priority first) refuse superseded epochs, stop expired leases, admit
 * all-or-nothing and create the objects; a reservation (spec.reservation) that fits only holds its
 * capacity and reports Reserved until the manager commits it.
 */
public final class RemoteWorkloadReconciler {
    public static final String REASON_FENCED = "FencingEpochSuperseded";
    public static final String REASON_LEASE_EXPIRED = dev.berth.protocol.crd.RemoteWorkloadPhase.REASON_LEASE_EXPIRED;
    public static final String REASON_UNSUPPORTED = "UnsupportedTemplate";

    private final KubernetesClient client;
    private final AgentConfig config;
    private final AttemptObjects objects;
    private final ClusterCaches caches;
    private final Assumptions assumptions = new Assumptions();
    private final FencingGuard fencing;
    private final LeaseClock leaseClock;
    private final AgentMetrics metrics;
    private final RemoteWorkloadStatusWriter statusWriter;
    private final AttemptLog log;
    private final ProvisioningRequests provisioning;
    private final MirroredInputs mirrored = new MirroredInputs();
    private final VanishedCopies vanished = new VanishedCopies();
    private final OrphanedAttempts orphans;
    private final PodRequests podRequests = new PodRequests();
    private volatile ClusterSnapshot lastSnapshot;

    public RemoteWorkloadReconciler(KubernetesClient client, AgentConfig config, AttemptObjects objects, ClusterCaches caches,
                                    FencingGuard fencing, LeaseClock leaseClock, AgentMetrics metrics) {
        this.client = client;
        this.config = config;
        this.objects = objects;
        this.caches = caches;
        this.fencing = fencing;
        this.leaseClock = leaseClock;
        this.metrics = metrics;
        this.statusWriter = new RemoteWorkloadStatusWriter(client);
        this.provisioning = new ProvisioningRequests(client);
        this.log = new AttemptLog(LoggerFactory.getLogger(RemoteWorkloadReconciler.class), config.name());
        this.orphans = new OrphanedAttempts(objects, config.name());
    }

    /** A snapshot of everything one pass needs, read once at its start. */
    private record PassInput(List<RemoteWorkload> remoteWorkloads, Map<String, List<Pod>> podsByAttempt,
                             Map<String, List<Map<String, Object>>> ownersByAttempt, ClusterSnapshot cluster,
                             Map<String, String> nameHolders, Set<String> currentAttempts) {}

    /**
     * The cluster as the last complete pass left it: bound pods plus the capacity held for admitted
     * attempts whose pods are not bound yet. Empty while no pass has completed since the last failure.
     */
    public Optional<ClusterSnapshot> lastSnapshot() {
        return Optional.ofNullable(lastSnapshot);
    }

    public void reconcile() {
        lastSnapshot = null;
        PassInput input = read();
        orphans.remove(input.currentAttempts(), input.ownersByAttempt(), input.podsByAttempt());
        ClusterSnapshot cluster = input.cluster();
        for (RemoteWorkload rw : input.remoteWorkloads()) {
            if (!isRunning(rw, input)) continue;
            try {
                cluster = reconcileRunning(rw, input, cluster);
            } catch (RuntimeException e) {
                log.warn(rw, "reconcile failed; retried next pass", "error", e.toString());
            }
        }
        for (RemoteWorkload rw : input.remoteWorkloads()) {
            try {
                if (isFinal(rw)) cleanUpFinished(rw, input);
                else if (!isRunning(rw, input)) cluster = reconcileWaiting(rw, input, cluster);
            } catch (RuntimeException e) {
                log.warn(rw, "reconcile failed; retried next pass", "error", e.toString());
            }
        }
        mirrored.endPass();
        countPhases(input.remoteWorkloads());
        lastSnapshot = cluster;
    }

    /**
     * Reads the pass's input from the informer caches (the agent runs a pass only once they have synced), with the
     * agent's own writes the caches may not show yet laid over them: see {@link Assumptions} for why capacity
     * decided on cached pods never admits two attempts into the same room.
     */
    private PassInput read() {
        List<RemoteWorkload> rws = assumptions.current(caches.remoteWorkloads());
        rws.removeIf(rw -> rw.getSpec() == null || rw.getSpec().getAttemptId() == null || rw.getMetadata().getDeletionTimestamp() != null);
        rws.sort(Comparator.comparingInt((RemoteWorkload rw) -> rw.getSpec().getPriority()).reversed()
                .thenComparing(rw -> Objects.requireNonNullElse(rw.getMetadata().getCreationTimestamp(), ""))
                .thenComparing(rw -> rw.getMetadata().getNamespace() + "/" + rw.getMetadata().getName()));
        List<Pod> pods = caches.pods();
        Set<String> visible = new HashSet<>();
        Map<String, List<Pod>> podsByAttempt = new HashMap<>();
        for (Pod pod : pods) {
            String attempt = label(pod, Labels.ATTEMPT_ID);
            if (attempt == null || label(pod, Labels.REMOTE_WORKLOAD) == null) continue;
            podsByAttempt.computeIfAbsent(attempt, a -> new ArrayList<>()).add(pod);
            visible.add(pod.getMetadata().getNamespace() + "/" + attempt);
        }
        Map<String, List<Map<String, Object>>> ownersByAttempt = new HashMap<>();
        for (Map<String, Object> owner : caches.owners()) {
            String attempt = labelOf(owner, Labels.ATTEMPT_ID);
            if (attempt == null) continue;
            ownersByAttempt.computeIfAbsent(attempt, a -> new ArrayList<>()).add(owner);
            visible.add(TemplatePods.map(owner, "metadata").orElse(Map.of()).get("namespace") + "/" + attempt);
        }
        Set<String> current = new HashSet<>();
        for (RemoteWorkload rw : rws) current.add(rw.getMetadata().getNamespace() + "/" + rw.getSpec().getAttemptId());
        assumptions.forget(visible, current, leaseClock.now());
        vanished.retain(current);
        return new PassInput(rws, podsByAttempt, ownersByAttempt, podRequests.snapshot(caches.nodes(), pods),
                EarlierCopies.holders(ownersByAttempt, podsByAttempt), current);
    }

    /** Step for an attempt whose objects exist: stop it if its lease ran out, else hold its capacity and mirror its status. */
    private ClusterSnapshot reconcileRunning(RemoteWorkload rw, PassInput input, ClusterSnapshot cluster) {
        RemoteWorkloadSpec spec = rw.getSpec();
        if (leaseClock.isExpired(spec.getLeaseRenewTime(), spec.getLeaseDurationSeconds())) {
            stopExpired(rw);
            return cluster;
        }
        if (!fencing.isSuperseded(spec.getFencingEpoch())) fencing.accept(spec.getFencingEpoch());
        List<Pod> pods = input.podsByAttempt().getOrDefault(spec.getAttemptId(), List.of());
        ClusterSnapshot reserved = UnboundPods.reserve(cluster, spec, pods);
        List<Map<String, Object>> owners = input.ownersByAttempt().getOrDefault(spec.getAttemptId(), List.of());
        String attempt = rw.getMetadata().getNamespace() + "/" + spec.getAttemptId();
        if (owners.isEmpty() && pods.isEmpty()) {
            // created by this agent, not in the caches yet: its capacity is held, its status waits for something to mirror
            if (assumptions.createdUnseen(rw.getMetadata().getNamespace(), spec.getAttemptId())) return reserved;
            // deleted on the cluster by someone else: held while that is confirmed, then stopped so the manager places it again
            return vanished.missing(attempt, leaseClock.now()) ? stopVanished(rw, cluster) : reserved;
        }
        vanished.present(attempt);
        Optional<MirroredInputs.Inputs> inputs = MirroredInputs.Inputs.of(rw, owners, pods);
        if (inputs.isPresent() && mirrored.unchanged(attempt, inputs.get())) return reserved; // its status is current
        if (owners.isEmpty()) owners = asMaps(pods); // plain pods and pod groups: the pods are the created objects
        RemoteWorkloadStatus status = AttemptStatusComposer.compose(currentStatus(rw), spec.getAttemptId(), owners, pods, leaseClock.now());
        PodReadiness.report(status, pods, spec.getPodSets().stream().mapToInt(PodSetPlacement::getCount).sum());
        if (RemoteWorkloadPhase.isFinal(status.getPhase())) log.info(rw, "attempt finished", "phase", status.getPhase());
        if (!write(rw, status)) inputs.ifPresent(unchanged -> mirrored.current(attempt, unchanged));
        return reserved;
    }

    @SuppressWarnings("unchecked")
    private List<Map<String, Object>> asMaps(List<Pod> pods) {
        List<Map<String, Object>> maps = new ArrayList<>();
        for (Pod pod : pods) maps.add(client.getKubernetesSerialization().convertValue(pod, Map.class));
        return maps;
    }

    /** Step for a new or pending attempt: refuse, stop, keep pending, or admit and create. */
    private ClusterSnapshot reconcileWaiting(RemoteWorkload rw, PassInput input, ClusterSnapshot cluster) {
        RemoteWorkloadSpec spec = rw.getSpec();
        if (!TemplateRenderer.canRender(spec)) {
            Object kind = spec.getTemplate() == null ? null : spec.getTemplate().get("kind");
            reject(rw, REASON_UNSUPPORTED, "template kind " + kind + " is not a batch/v1 Job, a JobSet, a PyTorchJob, an MPIJob, a RayJob, a RayCluster, a TrainJob, a Deployment, a StatefulSet, a LeaderWorkerSet, an AppWrapper, a Pod or a List of Pods");
            return cluster;
        }
        if (fencing.isSuperseded(spec.getFencingEpoch())) {
            reject(rw, REASON_FENCED, "fencing epoch " + spec.getFencingEpoch() + " is older than epoch "
                    + fencing.highestAccepted() + " already accepted by agent " + config.name());
            return cluster;
        }
        if (leaseClock.isExpired(spec.getLeaseRenewTime(), spec.getLeaseDurationSeconds())) {
            stopExpired(rw);
            return cluster;
        }
        fencing.accept(spec.getFencingEpoch());
        AdmissionResult result = AttemptAdmission.admit(cluster, AttemptDemand.of(spec));
        AttemptOwner owner = new AttemptOwner(rw.getMetadata().getNamespace(), rw.getMetadata().getName(),
                rw.getMetadata().getUid(), spec.getAttemptId(), spec.getWorkloadName());
        // capacity on request: a made request decides when the attempt may start (Provisioned), as Kueue's check does
        ProvisioningProgress requested = result instanceof AdmissionResult.DoesNotFit && !spec.awaitsCommit()
                ? provisioning.ensure(rw, owner) : provisioning.existing(rw);
        boolean provisioned = requested != null && ProvisioningRequestRenderer.isTrue(requested, Provisioning.PROVISIONED);
        if (result instanceof AdmissionResult.DoesNotFit || (requested != null && !provisioned)) {
            String reason = result instanceof AdmissionResult.DoesNotFit notFit ? notFit.reason() : "waiting for ProvisioningRequest "
                    + requested.getRequestName() + " to be Provisioned";
            RemoteWorkloadStatus status = freshStatus(rw, RemoteWorkloadPhase.PENDING, reason,
                    requested == null ? "waiting for capacity on cluster " + config.name()
                            : "waiting for ProvisioningRequest " + requested.getRequestName() + " on cluster " + config.name());
            status.setProvisioning(requested);
            if (!reason.equals(currentStatus(rw).getReason())) log.info(rw, "attempt pending", "reason", reason);
            write(rw, status);
            return cluster;
        }
        AdmissionResult.Fits fits = (AdmissionResult.Fits) result;
        if (spec.awaitsCommit()) return reserve(rw, fits);
        List<RenderedObject> rendered = TemplateRenderer.render(owner, spec, fits.topology(), requested == null ? Map.of()
                : ProvisioningRequestRenderer.consumeAnnotations(spec.getProvisioning()));
        Optional<String> earlier = EarlierCopies.inTheWay(rendered, spec.getAttemptId(), input.nameHolders());
        if (earlier.isPresent()) return waitForEarlierCopy(rw, earlier.get(), fits);
        return create(rw, rendered, fits, requested);
    }

    /**
     * Step for an attempt that fits: assume it (it counts as running until the caches show its objects), create its
     * objects and report it Admitted. Its capacity stays taken for the rest of the pass even when a create or the status
     * write fails: objects may exist, and the assumption holds the room in later passes until they are seen.
     */
    private ClusterSnapshot create(RemoteWorkload rw, List<RenderedObject> rendered, AdmissionResult.Fits fits, ProvisioningProgress requested) {
        assumptions.creating(rw.getMetadata().getNamespace(), rw.getSpec().getAttemptId(), leaseClock.now());
        try {
            objects.create(rendered);
            metrics.admitted();
            log.info(rw, "attempt admitted", "nodes", String.join(",", new TreeSet<>(fits.placements())));
            RemoteWorkloadStatus status = freshStatus(rw, RemoteWorkloadPhase.ADMITTED, null,
                    "admitted on cluster " + config.name() + ": " + fits.placements().size() + " pods placed");
            status.setAdmittedTime(leaseClock.now().toString());
            status.setTopologyAssignments(TopologyReport.assignments(fits));
            status.setProvisioning(requested);
            write(rw, status);
        } catch (RuntimeException e) {
            log.warn(rw, "creating or reporting the attempt failed; its capacity stays held, retried next pass", "error", e.toString());
        }
        return fits.after();
    }

    /** Writes a status and remembers the write until the RemoteWorkload cache shows it; false when it was current. */
    private boolean write(RemoteWorkload rw, RemoteWorkloadStatus status) {
        String replaced = rw.getMetadata().getResourceVersion();
        Optional<RemoteWorkload> written = statusWriter.write(rw, status);
        written.ifPresent(result -> assumptions.wrote(replaced, result));
        return written.isPresent();
    }

    /**
     * Step for an attempt that fits while an earlier attempt's object still holds one of its names (the copy
     * before a re-admission, not yet deleted): nothing is created until that object is gone, and the capacity
     * is held for this pass so the attempt keeps its place.
     */
    private ClusterSnapshot waitForEarlierCopy(RemoteWorkload rw, String earlier, AdmissionResult.Fits fits) {
        String reason = "waiting for " + earlier + " to be deleted";
        if (!reason.equals(currentStatus(rw).getReason())) log.info(rw, "attempt pending", "reason", reason);
        write(rw, freshStatus(rw, RemoteWorkloadPhase.PENDING, reason,
                "an earlier copy still holds the name on cluster " + config.name()));
        return fits.after();
    }

    /**
     * Step for a reservation that fits: its capacity is held for this pass (the next pass admits it again,
     * before younger attempts of its priority), nothing is created and no pod starts until the manager
     * commits it. An uncommitted reservation whose lease runs out is stopped like any attempt, which
     * releases what it held.
     */
    private ClusterSnapshot reserve(RemoteWorkload rw, AdmissionResult.Fits fits) {
        if (!RemoteWorkloadPhase.RESERVED.equals(currentStatus(rw).getPhase())) {
            log.info(rw, "attempt reserved; waiting for the manager's commit", "nodes", String.join(",", new TreeSet<>(fits.placements())));
        }
        RemoteWorkloadStatus status = freshStatus(rw, RemoteWorkloadPhase.RESERVED, null, "reserved on cluster " + config.name() + ": "
                + fits.placements().size() + " pods fit; nothing starts until the manager commits this copy");
        status.setTopologyAssignments(TopologyReport.assignments(fits));
        write(rw, status);
        return fits.after();
    }

    /** Step for an attempt already Stopped/Rejected/Succeeded/Failed: its objects go once it is stopped or rejected. */
    private void cleanUpFinished(RemoteWorkload rw, PassInput input) {
        String phase = rw.getStatus().getPhase();
        String attempt = rw.getSpec().getAttemptId();
        boolean leftovers = input.ownersByAttempt().containsKey(attempt) || input.podsByAttempt().containsKey(attempt);
        if (leftovers && (RemoteWorkloadPhase.STOPPED.equals(phase) || RemoteWorkloadPhase.REJECTED.equals(phase))) {
            // by name from the pass's listing, as for orphans; what the caches do not show yet goes in a later pass
            objects.deleteListed(input.ownersByAttempt().getOrDefault(attempt, List.of()), input.podsByAttempt().getOrDefault(attempt, List.of()));
        }
    }

    private ClusterSnapshot stopVanished(RemoteWorkload rw, ClusterSnapshot cluster) {
        RemoteWorkloadStatus status = freshStatus(rw, RemoteWorkloadPhase.STOPPED, RemoteWorkloadPhase.REASON_OBJECTS_DELETED,
                "every object and pod of the attempt was deleted on cluster " + config.name() + " for " + VanishedCopies.GRACE.toSeconds()
                        + "s, not by Berth; stopped, so that the manager places the workload again");
        status.setCompletionTime(leaseClock.now().toString());
        log.warn(rw, "attempt stopped: its objects and pods were deleted on the cluster", "phase", currentStatus(rw).getPhase());
        write(rw, status);
        return cluster;
    }

    private void stopExpired(RemoteWorkload rw) {
        RemoteWorkloadSpec spec = rw.getSpec();
        objects.deleteAttempt(rw.getMetadata().getNamespace(), spec.getAttemptId());
        RemoteWorkloadStatus status = freshStatus(rw, RemoteWorkloadPhase.STOPPED, REASON_LEASE_EXPIRED,
                "lease renewed at " + spec.getLeaseRenewTime() + " for " + spec.getLeaseDurationSeconds()
                        + "s expired before " + leaseClock.now() + "; objects and pods deleted");
        status.setCompletionTime(leaseClock.now().toString());
        metrics.leaseExpired();
        log.warn(rw, "attempt stopped: lease expired", "leaseRenewTime", spec.getLeaseRenewTime());
        write(rw, status);
    }

    private void reject(RemoteWorkload rw, String reason, String message) {
        metrics.rejected(reason);
        log.warn(rw, "attempt rejected", "reason", reason, "detail", message);
        RemoteWorkloadStatus status = freshStatus(rw, RemoteWorkloadPhase.REJECTED, reason, message);
        status.setCompletionTime(leaseClock.now().toString());
        write(rw, status);
    }

    private RemoteWorkloadStatus freshStatus(RemoteWorkload rw, String phase, String reason, String message) {
        RemoteWorkloadStatus status = new RemoteWorkloadStatus();
        status.setAttemptId(rw.getSpec().getAttemptId());
        status.setPhase(phase);
        status.setReason(reason);
        status.setMessage(message);
        status.setAdmittedTime(currentStatus(rw).getAdmittedTime());
        return status;
    }

    /** The status for this attempt; a status left by an earlier attempt of the same name counts as none. */
    private static RemoteWorkloadStatus currentStatus(RemoteWorkload rw) {
        RemoteWorkloadStatus status = rw.getStatus();
        if (status == null || !Objects.equals(status.getAttemptId(), rw.getSpec().getAttemptId())) return new RemoteWorkloadStatus();
        return status;
    }

    private static boolean isFinal(RemoteWorkload rw) {
        return RemoteWorkloadPhase.isFinal(currentStatus(rw).getPhase());
    }

    /**
     * Admitted or Running, or objects exist for the attempt (the status write after creating them was lost), or the
     * agent created them and the caches do not show them yet.
     */
    private boolean isRunning(RemoteWorkload rw, PassInput input) {
        if (isFinal(rw)) return false;
        String phase = currentStatus(rw).getPhase();
        return RemoteWorkloadPhase.ADMITTED.equals(phase) || RemoteWorkloadPhase.RUNNING.equals(phase)
                || input.ownersByAttempt().containsKey(rw.getSpec().getAttemptId())
                || input.podsByAttempt().containsKey(rw.getSpec().getAttemptId())
                || assumptions.createdUnseen(rw.getMetadata().getNamespace(), rw.getSpec().getAttemptId());
    }

    /** Phases as written this pass (the status writer sets each RemoteWorkload's status in place). */
    private void countPhases(List<RemoteWorkload> rws) {
        Map<String, Long> counts = new HashMap<>();
        for (RemoteWorkload rw : rws) {
            String phase = currentStatus(rw).getPhase();
            counts.merge(phase == null ? RemoteWorkloadPhase.PENDING : phase, 1L, Long::sum);
        }
        metrics.attempts(counts);
    }

    private static String label(HasMetadata object, String key) {
        Map<String, String> labels = object.getMetadata().getLabels();
        return labels == null ? null : labels.get(key);
    }

    private static String labelOf(Map<String, Object> object, String key) {
        Object value = TemplatePods.map(object, "metadata").flatMap(m -> TemplatePods.map(m, "labels")).orElse(Map.of()).get(key);
        return value == null ? null : value.toString();
    }
}
