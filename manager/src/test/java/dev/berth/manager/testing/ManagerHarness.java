package dev.berth.manager.testing;

import dev.berth.manager.core.SchedulerOptions;
import dev.berth.manager.security.QuickstartCredentials;
import dev.berth.manager.security.SecurityOptions;
import dev.berth.manager.controller.BerthManager;
import dev.berth.manager.controller.DispatchOptions;
import dev.berth.manager.controller.JobIntegrationSettings;
import dev.berth.manager.store.FileObjectStore;
import dev.berth.manager.store.MemoryObjectStore;
import dev.berth.manager.store.ObjectStore;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A BerthManager on a loopback port with a Vert.x it owns and a temporary data directory, for one
 * test class (registered on a static field) or one test (on an instance field):
 * <pre>
 * &#64;RegisterExtension
 * static final ManagerHarness harness = ManagerHarness.withE2eQueues();
 * ... harness.client().create(KueueObjects.localQueue("team-a", "lq").clusterQueue("team-a-cq"));
 * </pre>
 * Options: a file store in the data directory ({@link #fileStore()}, which {@link #restart()} reopens;
 * an in-memory or {@link #store given} store outlives a restart too), TLS with the quickstart's bearer tokens ({@link #secured()})
 * or with given security options, scheduler and dispatch options, a manager built by the test ({@link #builtBy}) and further
 * configuration of every manager it builds ({@link #configure}); {@link #startedByTheTest()} leaves the start to the test.
 * Everything it started is closed after the class (or test), and the data directory removed.
 */
public final class ManagerHarness implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback, AutoCloseable {
    /** The manager module's end-to-end queues (team-a and team-b, GPU flavors), relative to manager/. */
    public static final Path E2E_QUEUES = Path.of("src", "test", "resources", "e2e-queues");

    private final List<Path> manifestDirectories = new ArrayList<>();
    private Clock clock = Clock.systemUTC();
    private SchedulerOptions schedulerOptions = SchedulerOptions.DEFAULTS;
    private DispatchOptions dispatchOptions = DispatchOptions.DEFAULTS;
    private JobIntegrationSettings jobIntegration = JobIntegrationSettings.DEFAULTS;
    private boolean fileStore;
    private boolean secured;
    private SecurityOptions givenSecurity;
    private String givenCertificatePem;
    private ObjectStore givenStore;
    private BiFunction<ObjectStore, Clock, BerthManager> factory;
    private final List<Consumer<BerthManager>> configuration = new ArrayList<>();
    private boolean startedByTheTest;

    private boolean startedForTheClass;
    private Path dataDir;
    private Vertx vertx;
    private ObjectStore store;
    private BerthManager manager;
    /** 0 until the first start; a restart binds the same port, so clients and kubeconfigs stay valid. */
    private int port;
    private QuickstartCredentials credentials;
    private ManagerClient client;

    private ManagerHarness() {}

    /** An empty manager over an in-memory store. */
    public static ManagerHarness empty() {
        return new ManagerHarness();
    }

    /** A manager holding {@link #E2E_QUEUES}. */
    public static ManagerHarness withE2eQueues() {
        return empty().manifests(E2E_QUEUES);
    }

    /** Loads every manifest of directory once started (in the order given). */
    public ManagerHarness manifests(Path directory) {
        manifestDirectories.add(directory);
        return this;
    }

    /** Stores objects in files under the data directory, so that {@link #restart()} keeps them. */
    public ManagerHarness fileStore() {
        this.fileStore = true;
        return this;
    }

    /** Serves HTTPS with the quickstart's credentials (admin and team-a tokens) from the data directory. */
    public ManagerHarness secured() {
        this.secured = true;
        return this;
    }

    /** Serves HTTPS with the test's own security options (token file, OIDC, limits); clients trust certificatePem and send no token. */
    public ManagerHarness secured(SecurityOptions options, String certificatePem) {
        this.givenSecurity = options;
        this.givenCertificatePem = certificatePem;
        return this;
    }

    /**
     * Builds each manager with factory over the store and clock, instead of from the options above (a Kueue Configuration
     * file's {@code settings.newManager}); {@link #configure} and security still apply.
     */
    public ManagerHarness builtBy(BiFunction<ObjectStore, Clock, BerthManager> value) {
        this.factory = value;
        return this;
    }

    /**
     * Applies configurer to every manager built from now on, before it starts ({@code m -> m.adoptingWarmClients(standby)});
     * added to those given before.
     */
    public ManagerHarness configure(Consumer<BerthManager> configurer) {
        configuration.add(configurer);
        return this;
    }

    /** JUnit does not start the manager: the test calls {@link #start()} once it has set what the start needs. Closed after the test as usual. */
    public ManagerHarness startedByTheTest() {
        this.startedByTheTest = true;
        return this;
    }

    /** The manager runs over this store (kept over restarts, closed with the harness): a test's fault-injecting wrapper. */
    public ManagerHarness store(ObjectStore value) {
        this.givenStore = value;
        return this;
    }

    public ManagerHarness clock(Clock value) {
        this.clock = value;
        return this;
    }

    public ManagerHarness schedulerOptions(SchedulerOptions value) {
        this.schedulerOptions = value;
        return this;
    }

    public ManagerHarness dispatchOptions(DispatchOptions value) {
        this.dispatchOptions = value;
        return this;
    }

    /** Kueue's Configuration settings for jobs (resources, manageJobsWithoutQueueName). */
    public ManagerHarness jobIntegration(JobIntegrationSettings value) {
        this.jobIntegration = value;
        return this;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        startedForTheClass = true;
        if (!startedByTheTest) start();
    }

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        if (manager == null && !startedByTheTest) start();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (!startedForTheClass) close();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        close();
    }

    /** Starts the manager and loads the manifests; the JUnit callbacks call it, tests outside JUnit may too. */
    public void start() throws IOException {
        dataDir = Files.createTempDirectory("berth-harness");
        vertx = Vertx.vertx();
        try {
            if (secured) credentials = QuickstartCredentials.prepare(dataDir.resolve("security"), clock);
            if (!fileStore) store = givenStore != null ? givenStore : new MemoryObjectStore(clock);
            startManager();
            for (Path directory : manifestDirectories) manager.loadManifests(directory);
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
    }

    /**
     * Closes the manager (unless {@link #stopManager() stopped}) and starts a new one over the same objects, as after
     * a process restart (a new fencing epoch, the same port); a file store is reopened, an in-memory store kept.
     */
    public void restart() {
        stopManager();
        startManager();
    }

    /** {@link #restart()} with other dispatch options from now on. */
    public void restart(DispatchOptions options) {
        this.dispatchOptions = options;
        restart();
    }

    /** {@link #restart()} with other job settings from now on. */
    public void restart(JobIntegrationSettings settings) {
        this.jobIntegration = settings;
        restart();
    }

    /** Closes the manager only, as a dead process: its store stays for {@link #store()} and a {@link #restart()}. */
    public void stopManager() {
        if (manager != null) manager.close();
        manager = null;
    }

    private void startManager() {
        if (fileStore) store = FileObjectStore.open(dataDir.resolve("store"), clock);
        BerthManager started = factory != null ? factory.apply(store, clock)
                : new BerthManager(store, clock, schedulerOptions, dispatchOptions, jobIntegration);
        if (!fileStore) started.leavingStoreOpen();
        if (secured) started.secure(credentials.options());
        if (givenSecurity != null) started.secure(givenSecurity);
        configuration.forEach(configurer -> configurer.accept(started));
        started.start(vertx, "127.0.0.1", port).await();
        manager = started;
        port = started.port();
    }

    /** Closes the manager, its store and Vert.x, and removes the data directory. Safe to call twice. */
    @Override
    public void close() {
        stopManager();
        if (store != null && !fileStore) store.close();
        store = null;
        if (vertx != null) vertx.close().await();
        vertx = null;
        port = 0;
        client = null;
        if (dataDir != null) deleteRecursively(dataDir);
        dataDir = null;
    }

    public BerthManager manager() {
        return running(manager);
    }

    /**
     * Runs work while a task of the test holds the manager's state thread (bounded to 60 s), so that only what the
     * manager answers off that thread (watch streams, the store-read branch of a PostgreSQL-backed leader) can answer.
     */
    public <T> T whileTheStateThreadIsHeld(Callable<T> work) throws Exception {
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        BerthManager running = manager();
        CompletableFuture<Boolean> hold = CompletableFuture.supplyAsync(() -> running.onStateThread(() -> {
            held.countDown();
            return release.await(60, TimeUnit.SECONDS);
        }));
        try {
            if (!held.await(10, TimeUnit.SECONDS)) throw new IllegalStateException("the state thread was not free within 10 s");
            return work.call();
        } finally {
            release.countDown();
            hold.get(30, TimeUnit.SECONDS);
        }
    }

    public Vertx vertx() {
        return running(vertx);
    }

    /** The store the manager was built over (the manager itself writes through a fenced view of it). */
    public ObjectStore store() {
        return running(store);
    }

    public int port() {
        return manager().port();
    }

    public String baseUrl() {
        return (secured || givenSecurity != null ? "https" : "http") + "://127.0.0.1:" + port();
    }

    /** A directory that lives as long as the manager: its file store, credentials, kubeconfigs. */
    public Path dataDir() {
        return running(dataDir);
    }

    /** The client of the API (one for the harness: a restart keeps the port); with {@link #secured()} it trusts the manager's certificate and sends the admin token. */
    public ManagerClient client() {
        if (client == null) {
            client = secured ? ManagerClient.trusting(baseUrl(), credentials.certificatePem()).withToken(adminToken())
                    : givenSecurity != null ? ManagerClient.trusting(baseUrl(), givenCertificatePem) : new ManagerClient(baseUrl());
        }
        return client;
    }

    /** The quickstart credentials of a {@link #secured()} manager. */
    public QuickstartCredentials credentials() {
        return running(credentials);
    }

    /** The bearer token of the quickstart's admin (group system:masters). */
    public String adminToken() {
        return tokenOf(QuickstartCredentials.ADMIN_USER);
    }

    /** The bearer token of the quickstart's tenant (group team-a; examples/rbac binds it in namespace team-a only). */
    public String tenantToken() {
        return tokenOf(QuickstartCredentials.TENANT_USER);
    }

    private String tokenOf(String user) {
        Path tokens = dataDir().resolve("security").resolve("tokens.csv");
        try (Stream<String> lines = Files.lines(tokens)) {
            return lines.filter(line -> line.contains("," + user + ","))
                    .map(line -> line.substring(0, line.indexOf(','))).findFirst()
                    .orElseThrow(() -> new IllegalStateException("no token of " + user + " in " + tokens));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes a kubeconfig for this manager (admin context current, team-a context beside it) at file. */
    public Path writeKubeconfig(Path file) {
        return credentials().writeKubeconfig(file, baseUrl());
    }

    private static <T> T running(T value) {
        if (value == null) throw new IllegalStateException("the manager harness is not running (register it with @RegisterExtension)");
        return value;
    }

    private static void deleteRecursively(Path root) {
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
