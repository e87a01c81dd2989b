package dev.berth.manager.clusters;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.manager.dispatch.BreakerState;
import dev.berth.protocol.Annotations;
import dev.berth.protocol.Labels;
import dev.berth.protocol.crd.BerthCrds;
import dev.berth.protocol.crd.CapacityReport;
import dev.berth.protocol.crd.RemoteWorkload;
import dev.berth.protocol.crd.RemoteWorkloadSpec;
import dev.berth.protocol.crd.RemoteWorkloadStatus;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;

/**
 * A worker cluster and its agent, in memory, behind the manager's real {@link WorkerClusters}: every call the
 * dispatcher makes (create, renew, commit, delete, fence) is recorded and answered at once unless a row says
 * otherwise (an error, a create left unanswered or answered late, a partition), and the listings and the agent's
 * heartbeat Lease are what the row set. No network, no threads: answers complete Vert.x futures on the caller's
 * thread, and {@link WorkerClusters} hops them to the scenario's state queue as in production.
 */
public final class FakeWorkerCluster extends ClusterCalls {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** How the cluster answers creates. */
    public enum Creates {
        /** Stored and acknowledged. */
        ANSWERED,
        /** A 503: not stored, and not an answer (it may have taken effect, as far as the manager knows). */
        SERVER_ERROR,
        /** A 422: refused, so it did not happen. */
        REFUSED,
        /** Never answered, nothing stored until {@link #deliverHeldCreates}. */
        HELD,
        /** The call times out at once, but the copy lands anyway (a request that sat in a slow network). */
        TIMES_OUT_BUT_LANDS
    }

    /** One call the manager made: verb, workload, the attempt id the cluster held or was sent, and the epoch sent. */
    public record Call(String verb, String workload, String attemptId, long epoch, Instant at) {
        @Override
        public String toString() {
            return verb + " " + workload;
        }
    }

    /** A copy the cluster holds: what the manager wrote, and what the agent reports. */
    static final class Copy {
        RemoteWorkloadSpec sent;
        String attemptId;
        long epoch;
        Boolean reservation;
        String leaseRenewTime;
        String phase;
        String reason;
        List<RemoteWorkloadStatus.PodProblem> podProblems = List.of();
        long version;
    }

    private final String name;
    private final Clock clock;
    private final Map<String, Copy> copies = new LinkedHashMap<>();
    private final List<Call> calls = new ArrayList<>();
    private final List<Runnable> heldCreates = new ArrayList<>();
    private final Map<String, Integer> omitted = new HashMap<>();
    private final Map<String, Integer> livePods = new HashMap<>();
    private java.util.function.Consumer<Call> onCall = call -> { };
    private Creates creates = Creates.ANSWERED;
    private boolean renewalsFail;
    private boolean commitsSuperseded;
    private BreakerState breaker = BreakerState.CLOSED;
    private final List<Call> refusedCommits = new ArrayList<>();
    private boolean partitioned;
    private boolean agentAlive = true;
    private Instant lastBeat;
    private long agentEpoch;
    private boolean publishesEpoch = true;
    private int freeGpus = 8;
    private String flavor = "a100";
    private long versions;
    private Instant lastSuccess;
    private String lastError;

    public FakeWorkerCluster(String name, Clock clock) {
        super(name, (KubernetesClient) null, () -> { }, ResilienceOptions.DEFAULTS, clock);
        this.name = name;
        this.clock = clock;
        this.lastBeat = clock.instant();
    }

    /** Adds this cluster to the manager's worker clusters, as a MultiKueueCluster whose client was just built. */
    public void connectTo(WorkerClusters clusters) {
        clusters.connectWith(name, this);
    }

    // ---- what a row sets -------------------------------------------------------------------------

    public FakeWorkerCluster creates(Creates mode) { creates = mode; return this; }
    /** Runs as each call arrives, before it is answered (to look at the manager's store at that moment). */
    public FakeWorkerCluster onCall(java.util.function.Consumer<Call> observer) { onCall = observer; return this; }
    public FakeWorkerCluster renewalsFail(boolean fail) { renewalsFail = fail; return this; }
    /** Commits are answered 409: the reservation was superseded (another attempt's copy, or a newer leader's stamp). */
    public FakeWorkerCluster commitsSuperseded(boolean refuse) { commitsSuperseded = refuse; return this; }
    /** The state the manager's circuit breaker for this cluster reports (the calls still answer as the row set). */
    public FakeWorkerCluster breaker(BreakerState state) { breaker = state; return this; }
    public FakeWorkerCluster partitioned(boolean cut) { partitioned = cut; return this; }
    /** A dead or frozen agent: its heartbeat stops, the API still answers. */
    public FakeWorkerCluster agentAlive(boolean alive) { agentAlive = alive; return this; }
    public FakeWorkerCluster freeGpus(int gpus) { freeGpus = gpus; return this; }
    public FakeWorkerCluster flavor(String offered) { flavor = offered; return this; }
    /** The agent's published fencing epoch (FencingGuard's mark on the Lease). */
    public FakeWorkerCluster agentEpoch(long epoch) { agentEpoch = epoch; publishesEpoch = true; return this; }
    /** An older agent that publishes no epoch on its Lease. */
    public FakeWorkerCluster publishesNoEpoch() { publishesEpoch = false; return this; }
    /** The next listings leave out the workload's copy (a listing cache that lags, a copy deleted and recreated). */
    public FakeWorkerCluster omitFromListings(String workload, int listings) { omitted.put(workload, listings); return this; }
    /** The pods of the workload's copy still live when the manager fences it. */
    public FakeWorkerCluster livePods(String workload, int pods) { livePods.put(workload, pods); return this; }

    /** The agent's heartbeat, sent by the scenario every tick while the agent lives. */
    public void beat() {
        if (agentAlive) lastBeat = clock.instant();
    }

    /** The agent reports the workload's copy in this phase (and reason), stamped with the copy's attempt id. */
    public FakeWorkerCluster report(String workload, String phase, String reason) {
        Copy copy = copies.get(workload);
        if (copy == null) throw new IllegalStateException("cluster " + name + " holds no copy of " + workload);
        copy.phase = phase;
        copy.reason = reason;
        copy.podProblems = List.of();
        copy.version = ++versions;
        return this;
    }

    /** The agent reports the copy Admitted, its pod not running: the cluster's scheduler found no node for it (drill 10). */
    public FakeWorkerCluster unschedulable(String workload, String message) {
        report(workload, "Admitted", null);
        copies.get(workload).podProblems = List.of(new RemoteWorkloadStatus.PodProblem(workload + "-0", null, "Unschedulable", message));
        return this;
    }

    public FakeWorkerCluster report(String workload, String phase) {
        return report(workload, phase, null);
    }

    /** The creates left unanswered land now; answered (true) or still unanswered for the manager (false). */
    public void deliverHeldCreates() {
        List<Runnable> due = new ArrayList<>(heldCreates);
        heldCreates.clear();
        due.forEach(Runnable::run);
    }

    // ---- what a row reads ------------------------------------------------------------------------

    public List<Call> calls() { return List.copyOf(calls); }

    /** The verbs sent about one workload, in order ("create", "renew", "commit", "delete", "fence"). */
    public List<String> verbs(String workload) {
        return calls.stream().filter(c -> c.workload().equals(workload)).map(Call::verb).toList();
    }

    /** The commits of the workload this cluster did not refuse with an answer (a refused commit starts nothing). */
    public long commitsNotRefused(String workload) {
        return calls.stream().filter(c -> c.verb().equals("commit") && c.workload().equals(workload) && !refusedCommits.contains(c)).count();
    }

    public boolean holds(String workload) { return copies.containsKey(workload); }
    public String attemptOf(String workload) { Copy copy = copies.get(workload); return copy == null ? null : copy.attemptId; }
    public Boolean reservationOf(String workload) { Copy copy = copies.get(workload); return copy == null ? null : copy.reservation; }
    public long epochOf(String workload) { Copy copy = copies.get(workload); return copy == null ? -1 : copy.epoch; }
    public String leaseRenewTimeOf(String workload) { Copy copy = copies.get(workload); return copy == null ? null : copy.leaseRenewTime; }
    public long leaseSecondsOf(String workload) { Copy copy = copies.get(workload); return copy == null ? -1 : copy.sent.getLeaseDurationSeconds(); }
    public long agentEpoch() { return agentEpoch; }
    public String name() { return name; }

    // ---- the calls -------------------------------------------------------------------------------

    @Override
    public Future<Void> writeFlavorCatalogue(String flavorsJson) {
        return partitioned ? timeout() : ok(null);
    }

    @Override
    public Future<Lease> readAgentLease() {
        if (partitioned) return timeout();
        CapacityReport.FlavorCapacity offered = new CapacityReport.FlavorCapacity();
        offered.setName(flavor);
        offered.setNodes(2);
        offered.setFree(Map.of("nvidia.com/gpu", Integer.toString(freeGpus), "cpu", "64"));
        offered.setLargestFreeOnOneNode(Map.of("nvidia.com/gpu", Integer.toString(freeGpus), "cpu", "32"));
        CapacityReport report = new CapacityReport();
        report.getFlavors().add(offered);
        Map<String, String> annotations = new HashMap<>();
        try {
            annotations.put(Annotations.AGENT_CAPACITY, JSON.writeValueAsString(report));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        if (publishesEpoch) annotations.put(Annotations.AGENT_FENCING_EPOCH, Long.toString(agentEpoch));
        return ok(new LeaseBuilder().withNewMetadata().withName(BerthCrds.AGENT_LEASE).withNamespace(BerthCrds.SYSTEM_NAMESPACE)
                .addToAnnotations(annotations).endMetadata()
                .withNewSpec().withHolderIdentity(name + "-agent").withRenewTime(lastBeat.atZone(ZoneOffset.UTC)).endSpec().build());
    }

    @Override
    public Future<List<RemoteWorkload>> listAttempts(String origin) {
        if (partitioned) return timeout();
        List<RemoteWorkload> listed = new ArrayList<>();
        copies.forEach((workload, copy) -> {
            Integer left = omitted.get(workload);
            if (left != null && left > 0) {
                omitted.put(workload, left - 1);
                return;
            }
            listed.add(listed(workload, copy));
        });
        return ok(listed);
    }

    @Override
    public Future<RemoteWorkload> create(RemoteWorkload attempt) {
        String workload = attempt.getMetadata().getName();
        RemoteWorkloadSpec spec = attempt.getSpec();
        record(new Call("create", workload, spec.getAttemptId(), spec.getFencingEpoch(), clock.instant()));
        if (partitioned) return timeout();
        return switch (creates) {
            case ANSWERED -> ok(store(attempt));
            case SERVER_ERROR -> failed(new KubernetesClientException("service unavailable", 503, null));
            case REFUSED -> failed(new KubernetesClientException("refused", 422, null));
            case TIMES_OUT_BUT_LANDS -> {
                store(attempt);
                yield timeout();
            }
            case HELD -> {
                Promise<RemoteWorkload> answer = Promise.promise();
                heldCreates.add(() -> answer.complete(store(attempt)));
                yield answer.future();
            }
        };
    }

    @Override
    public Future<Void> renew(String namespace, String workload, String renewTime, long epoch) {
        Copy copy = copies.get(workload);
        record(new Call("renew", workload, copy == null ? null : copy.attemptId, epoch, clock.instant()));
        if (partitioned) return timeout();
        if (renewalsFail) return failed(new KubernetesClientException("service unavailable", 503, null));
        if (copy == null) return failed(new KubernetesClientException("not found", 404, null));
        copy.leaseRenewTime = renewTime;
        copy.epoch = Math.max(copy.epoch, epoch);
        accept(epoch);
        return ok(null);
    }

    @Override
    public Future<Void> commit(String namespace, String workload, String attemptId, String renewTime, long epoch) {
        Copy copy = copies.get(workload);
        Call call = new Call("commit", workload, attemptId, epoch, clock.instant());
        record(call);
        if (partitioned) return timeout();
        if (copy == null) {
            refusedCommits.add(call);
            return failed(new KubernetesClientException("not found", 404, null));
        }
        if (commitsSuperseded || !attemptId.equals(copy.attemptId) || copy.epoch > epoch) {
            refusedCommits.add(call);
            return failed(new KubernetesClientException("copy is no longer attempt " + attemptId, 409, null));
        }
        copy.reservation = false;
        copy.leaseRenewTime = renewTime;
        copy.epoch = epoch;
        copy.version = ++versions;
        accept(epoch);
        return ok(null);
    }

    @Override
    public Future<Void> delete(String namespace, String workload) {
        Copy copy = copies.get(workload);
        record(new Call("delete", workload, copy == null ? null : copy.attemptId, 0, clock.instant()));
        if (partitioned) return timeout();
        copies.remove(workload);
        return ok(null);
    }

    @Override
    public Future<Integer> fenceAttempt(String namespace, String workload, String attemptId) {
        record(new Call("fence", workload, attemptId, 0, clock.instant()));
        if (partitioned) return timeout();
        Copy copy = copies.get(workload);
        if (copy != null && attemptId.equals(copy.attemptId)) copies.remove(workload);
        return ok(livePods.getOrDefault(workload, 0));
    }

    @Override
    public Instant lastSuccess() { return lastSuccess; }

    @Override
    public String lastError() { return lastError; }

    @Override
    public BreakerState breakerState() { return breaker; }

    // ---- internals -------------------------------------------------------------------------------

    private void record(Call call) {
        calls.add(call);
        onCall.accept(call);
    }

    private RemoteWorkload store(RemoteWorkload attempt) {
        RemoteWorkloadSpec spec = attempt.getSpec();
        Copy copy = new Copy();
        copy.sent = spec;
        copy.attemptId = spec.getAttemptId();
        copy.epoch = spec.getFencingEpoch();
        copy.reservation = spec.getReservation();
        copy.leaseRenewTime = spec.getLeaseRenewTime();
        copy.version = ++versions;
        copies.put(attempt.getMetadata().getName(), copy);
        accept(copy.epoch);
        return listed(attempt.getMetadata().getName(), copy);
    }

    /** The agent's FencingGuard: the highest epoch it accepted only rises. */
    private void accept(long epoch) {
        agentEpoch = Math.max(agentEpoch, epoch);
    }

    private RemoteWorkload listed(String workload, Copy copy) {
        RemoteWorkload remote = new RemoteWorkload();
        remote.setMetadata(new ObjectMetaBuilder().withName(workload).withNamespace("team-a")
                .withResourceVersion(Long.toString(copy.version)).addToLabels(Labels.ORIGIN, "berth-manager").build());
        RemoteWorkloadSpec spec = new RemoteWorkloadSpec();
        spec.setOrigin(copy.sent.getOrigin());
        spec.setWorkloadName(copy.sent.getWorkloadName());
        spec.setAttemptId(copy.attemptId);
        spec.setFencingEpoch(copy.epoch);
        spec.setLeaseRenewTime(copy.leaseRenewTime);
        spec.setLeaseDurationSeconds(copy.sent.getLeaseDurationSeconds());
        spec.setPriority(copy.sent.getPriority());
        spec.setReservation(copy.reservation);
        spec.setPodSets(copy.sent.getPodSets());
        spec.setFlavors(copy.sent.getFlavors());
        remote.setSpec(spec);
        if (copy.phase != null) {
            RemoteWorkloadStatus status = new RemoteWorkloadStatus();
            status.setPhase(copy.phase);
            status.setReason(copy.reason);
            status.setAttemptId(copy.attemptId);
            if ("Running".equals(copy.phase)) status.setPodsRunning(1);
            status.setPodProblems(new ArrayList<>(copy.podProblems));
            remote.setStatus(status);
        }
        return remote;
    }

    private <T> Future<T> ok(T value) {
        lastSuccess = clock.instant();
        lastError = null;
        return Future.succeededFuture(value);
    }

    private <T> Future<T> failed(KubernetesClientException error) {
        if (ClusterResilience.isAnswer(error)) {
            lastSuccess = clock.instant();
            lastError = null;
        } else {
            lastError = error.getMessage();
        }
        return Future.failedFuture(error);
    }

    private <T> Future<T> timeout() {
        lastError = "call to " + name + " timed out";
        return Future.failedFuture(new TimeoutException(lastError));
    }
}
