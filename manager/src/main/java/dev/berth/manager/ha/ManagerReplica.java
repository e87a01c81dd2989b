package dev.berth.manager.ha;

import dev.berth.manager.DaemonThreads;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.LifecycleEvent.LifecycleState;
import dev.berth.manager.security.RbacPolicySource;
import dev.berth.manager.security.SecurityOptions;
import dev.berth.manager.security.edge.ApiSecurity;
import dev.berth.manager.security.edge.SecureServer;
import dev.berth.manager.controller.BerthManager;
import dev.berth.manager.controller.FollowerApi;
import dev.berth.manager.store.ObjectStore;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import dev.berth.manager.api.GracefulShutdown;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.ClientAuth;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.PemTrustOptions;
import dev.berth.manager.security.ReplicaTrust;
import dev.berth.manager.security.edge.FrontProxyIdentity;
import java.time.Clock;
import java.time.Duration;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One manager replica: a Hazelcast member with a clustered Vert.x, the public API port
 * ({@link ReplicaFront}), and a {@link Leadership} that runs a {@link BerthManager} while this replica
 * leads. All replicas share one durable store (PostgreSQL); followers read it directly, so a read on
 * any replica sees every committed write.
 */
public final class ManagerReplica implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ManagerReplica.class);
    private static final Set<LifecycleState> FENCING_STATES = Set.of(
            LifecycleState.SHUTTING_DOWN, LifecycleState.SHUTDOWN, LifecycleState.MERGING);

    private final ReplicaOptions options;
    private final ObjectStore store;
    private final HazelcastInstance hazelcast;
    private final Vertx vertx;
    private final Leadership leadership;
    private final RequestForwarder forwarder;
    private final ExecutorService readExecutor;
    private final HttpServer server;
    /** The replica port (mutual TLS), when replica trust is configured. */
    private final HttpServer replicaServer;
    private final boolean tls;
    private final JoinGate joinGate;
    private final MemberAllowList allowList;
    /** Keeps read-only worker-cluster clients warm while this replica follows; a new leader adopts them. */
    private final WarmStandby warmStandby;
    private final GracefulShutdown shutdown = new GracefulShutdown();
    /** How often the warm standby looks at the stored clusters (each client reads its cluster less often). */
    static final Duration WARM_STANDBY_ROUND = Duration.ofSeconds(1);

    /** How often a follower rereads the RBAC objects the leader wrote. */
    static final Duration RBAC_REFRESH = Duration.ofSeconds(1);

    private ManagerReplica(ReplicaOptions options, ObjectStore store, HazelcastInstance hazelcast, Vertx vertx,
                           Supplier<BerthManager> managers, SecurityOptions securityOrNull, ReplicaTrust replicaTrustOrNull,
                           StandbyWork standby) {
        this.tls = securityOrNull != null && securityOrNull.tls().isPresent();
        this.options = options;
        this.store = store;
        this.hazelcast = hazelcast;
        this.vertx = vertx;
        this.allowList = MemberAllowList.of(options);
        this.joinGate = new JoinGate(options.joinQuorum(), options.joinTimeout(), Clock.systemUTC());
        this.readExecutor = Executors.newSingleThreadExecutor(DaemonThreads.named("berth-reads-" + options.replicaId()));
        this.forwarder = new RequestForwarder(vertx, replicaTrustOrNull);
        FrontProxyIdentity loopbackProxy = FrontProxyIdentity.withRandomSecret();
        ApiSecurity frontSecurity = ApiSecurity.limitsOnly();
        HttpServerOptions serverOptions = new HttpServerOptions();
        if (securityOrNull != null) {
            RbacPolicySource followerPolicy = new RbacPolicySource(store);
            vertx.setPeriodic(RBAC_REFRESH.toMillis(), id -> readExecutor.execute(followerPolicy::reload));
            frontSecurity = SecureServer.security(securityOrNull, followerPolicy, Clock.systemUTC());
            serverOptions = SecureServer.serverOptions(securityOrNull);
        }
        String[] url = new String[1];
        this.leadership = new Leadership(vertx, store, () -> managers.get().leadingFor(loopbackProxy, shutdown)
                .adoptingWarmClients(standby.clients()), this::eligible, options.replicaId(), () -> url[0], options.leadershipCheckInterval());
        this.warmStandby = new WarmStandby(store, standby, leadership::role, options.replicaId());
        this.server = frontSecurity.serve(vertx, vertx.createHttpServer(serverOptions),
                        new ReplicaFront(options.replicaId(), leadership, forwarder, frontSecurity)
                                .router(vertx, FollowerApi.readRouter(vertx, store, readExecutor, shutdown)))
                .listen(options.apiPort(), options.apiHost()).await();
        this.replicaServer = replicaTrustOrNull == null ? null : vertx.createHttpServer(replicaServerOptions(replicaTrustOrNull))
                .requestHandler(new ReplicaListener(options.replicaId(), leadership, forwarder, replicaTrustOrNull, loopbackProxy,
                        Clock.systemUTC())::handle)
                .listen(replicaTrustOrNull.port(), options.apiHost()).await();
        String publicUrl = tls ? options.advertisedUrlFor(server.actualPort()).replaceFirst("^http://", "https://")
                : options.advertisedUrlFor(server.actualPort());
        url[0] = replicaServer == null ? publicUrl
                : "https://" + java.net.URI.create(publicUrl).getHost() + ":" + replicaServer.actualPort();
        hazelcast.getLifecycleService().addLifecycleListener(event -> {
            if (FENCING_STATES.contains(event.getState())) leadership.stepDown("hazelcast member " + event.getState());
        });
        hazelcast.getCluster().addMembershipListener(new MembershipListener() {
            @Override
            public void memberAdded(MembershipEvent event) {
                var address = event.getMember().getAddress();
                if (allowList.allows(address.getHost(), address.getPort())) return;
                log.atError().setMessage("a Hazelcast member not in --cluster-members joined; it does not count towards leading."
                                + " Restrict the cluster port to the replicas (network policy, firewall)")
                        .addKeyValue("replica", options.replicaId())
                        .addKeyValue("member", address.toString()).log();
            }

            @Override
            public void memberRemoved(MembershipEvent event) {
                warmStandby.memberLost();
                if (!enoughMembers()) leadership.stepDown("only " + event.getMembers().size() + " members left, "
                        + options.minMembersToLead() + " needed to lead");
            }
        });
        dev.berth.manager.clusters.ClientWarmUp.start();
        warmStandby.start(WARM_STANDBY_ROUND);
        leadership.start();
    }

    /**
     * Joins the cluster and starts serving; leads when it wins the election. The store is the replica's
     * to close; managers makes a fresh manager over that store for each term of leadership.
     */
    public static ManagerReplica start(ReplicaOptions options, ObjectStore store, Supplier<BerthManager> managers) {
        return start(options, store, managers, null);
    }

    /**
     * As above, with the public port secured when securityOrNull is given: TLS (if configured) and the
     * guard on followers. The managers the supplier makes must be secured with the same options
     * {@link SecurityOptions#withoutTls() without TLS}: the leader's front forwards to them on loopback.
     */
    public static ManagerReplica start(ReplicaOptions options, ObjectStore store, Supplier<BerthManager> managers,
                                       SecurityOptions securityOrNull) {
        return start(options, store, managers, securityOrNull, null);
    }

    /**
     * As above, with the replicas trusting each other through mutual TLS from a replica CA: followers
     * forward to the leader's replica port as the callers they authenticated, never with their tokens.
     * Secured replicas need it: without it a follower would have to pass bearer tokens to whichever
     * member published itself as leader.
     *
     * @throws IllegalArgumentException when securityOrNull is given without replicaTrustOrNull
     */
    public static ManagerReplica start(ReplicaOptions options, ObjectStore store, Supplier<BerthManager> managers,
                                       SecurityOptions securityOrNull, ReplicaTrust replicaTrustOrNull) {
        return start(options, store, managers, securityOrNull, replicaTrustOrNull, StandbyWork.NONE);
    }

    /**
     * As above, ready to lead while following ({@link StandbyWork}): worker-cluster clients kept warm (built with the
     * managers' resilience options and origin), which a new leader's manager adopts instead of building its own, and
     * a read-only rehearsal of the state recovery.
     */
    public static ManagerReplica start(ReplicaOptions options, ObjectStore store, Supplier<BerthManager> managers,
                                       SecurityOptions securityOrNull, ReplicaTrust replicaTrustOrNull, StandbyWork standby) {
        if (securityOrNull != null && replicaTrustOrNull == null) {
            throw new IllegalArgumentException("secured replicas need replica TLS: --replica-ca-file, --replica-cert-file and"
                    + " --replica-key-file (followers forward callers' identities to the leader over mutual TLS, never their tokens)");
        }
        HazelcastInstance hazelcast = Hazelcast.newHazelcastInstance(HazelcastSetup.config(options));
        try {
            VertxOptions vertxOptions = new VertxOptions();
            vertxOptions.getEventBusOptions().setHost(options.clusterHost()).setPort(options.eventBusPort());
            Vertx vertx = Vertx.builder().with(vertxOptions).withClusterManager(new HazelcastClusterManager(hazelcast))
                    .buildClustered().await();
            ManagerReplica replica = new ManagerReplica(options, store, hazelcast, vertx, managers, securityOrNull, replicaTrustOrNull, standby);
            log.atInfo().setMessage("manager replica serving")
                    .addKeyValue("replica", options.replicaId())
                    .addKeyValue("url", replica.url())
                    .addKeyValue("members", hazelcast.getCluster().getMembers().size())
                    .log();
            return replica;
        } catch (RuntimeException e) {
            hazelcast.getLifecycleService().terminate();
            throw e;
        }
    }

    private static HttpServerOptions replicaServerOptions(ReplicaTrust trust) {
        return new HttpServerOptions().setSsl(true)
                .setKeyCertOptions(new PemKeyCertOptions().setCertPath(trust.certificateFile().toString()).setKeyPath(trust.keyFile().toString()))
                .setTrustOptions(new PemTrustOptions().addCertPath(trust.caFile().toString()))
                .setClientAuth(ClientAuth.REQUIRED);
    }

    /** The cluster-wide leader record this replica reads and publishes (tests). */
    LeaderDirectory directory() {
        return leadership.directory();
    }

    /** Campaigns and keeps leading only while this holds (checked by the leadership thread). */
    private boolean eligible() {
        return enoughMembers() && joinSettled();
    }

    private boolean enoughMembers() {
        return hazelcast.getLifecycleService().isRunning() && listedMembers() >= options.minMembersToLead();
    }

    /** The members that count as replicas ({@link MemberAllowList}): an unlisted member never makes up a quorum. */
    private int listedMembers() {
        return (int) hazelcast.getCluster().getMembers().stream()
                .filter(member -> member.localMember() || allowList.allows(member.getAddress().getHost(), member.getAddress().getPort()))
                .count();
    }

    /** Whether this replica's join has settled ({@link JoinGate}); logs once when it does. */
    private boolean joinSettled() {
        if (joinGate.isSettled()) return true;
        int members = listedMembers();
        JoinGate.Settled settled = joinGate.settle(members, this::leaderKnown);
        if (settled == null) return false;
        log.atInfo().setMessage("cluster join settled: may campaign for leadership")
                .addKeyValue("replica", options.replicaId())
                .addKeyValue("members", members)
                .addKeyValue("expectedMembers", joinGate.expectedMembers())
                .addKeyValue("reason", settled)
                .addKeyValue("waitedMillis", joinGate.waited().toMillis())
                .log();
        return true;
    }

    private boolean leaderKnown() {
        try {
            return leadership.directory().leader().toCompletionStage().toCompletableFuture()
                    .get(2, TimeUnit.SECONDS).isPresent();
        } catch (Exception unknown) {
            return false;
        }
    }

    /** Whether this replica may campaign yet: its join has settled (tests, and the replica description). */
    public boolean joinHasSettled() {
        return joinGate.isSettled();
    }

    public String replicaId() {
        return options.replicaId();
    }

    public int port() {
        return server.actualPort();
    }

    public String url() {
        return (tls ? "https" : "http") + "://127.0.0.1:" + port();
    }

    /** How many members this replica's Hazelcast cluster has, as it sees it (0 once it stopped). */
    public int clusterSize() {
        return hazelcast.getLifecycleService().isRunning() ? hazelcast.getCluster().getMembers().size() : 0;
    }

    public boolean isLeader() {
        return leadership.term() != null;
    }

    /** The fencing epoch of this replica's current term; 0 when it follows. */
    public long epoch() {
        Leadership.Term term = leadership.term();
        return term == null ? 0 : term.epoch();
    }

    /** The manager this replica runs while it leads (tests, for state-thread inspection); null when following. */
    public BerthManager leadingManager() {
        Leadership.Term term = leadership.term();
        return term == null ? null : term.manager();
    }

    /** Dies as a crash would look to the others: the Hazelcast member vanishes without a graceful leave. */
    public void kill() {
        hazelcast.getLifecycleService().terminate();
        stop(false);
    }

    /** Once a shutdown begins, keep serving this long with /readyz failing (kube-apiserver's --shutdown-delay-duration). */
    public ManagerReplica shutdownDelay(Duration delay) {
        shutdown.timing(delay, GracefulShutdown.DEFAULT_DRAIN_BOUND);
        return this;
    }

    /**
     * As a manager shuts down (GracefulShutdown): /readyz fails, requests are served for the delay, then the public
     * port stops and the requests in flight there are answered (a stream forwarded to the leader ends between two
     * of its events, StreamRelay: client-go re-watches through the Service); the replica port is drained too, then a leader's manager drains what is left.
     */
    @Override
    public void close() {
        stop(true);
    }

    private void stop(boolean gracefully) {
        warmStandby.close();
        if (gracefully) {
            shutdown.drain(server, forwarder::endStreams);
            if (replicaServer != null) replicaServer.shutdown(GracefulShutdown.DEFAULT_DRAIN_BOUND.toMillis(), TimeUnit.MILLISECONDS).await();
        }
        leadership.close();
        server.close().await();
        if (replicaServer != null) replicaServer.close().await();
        forwarder.close();
        vertx.close().await();
        if (hazelcast.getLifecycleService().isRunning()) hazelcast.shutdown();
        readExecutor.shutdownNow();
        store.close();
    }
}
