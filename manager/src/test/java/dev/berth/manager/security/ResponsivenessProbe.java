package dev.berth.manager.security;

import dev.berth.manager.testing.ManagerClient;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Probes a SecureManager while hostile requests are sent: {@code /readyz} (served on the event loop)
 * and a GET of a small object (served on the single state thread, so it waits behind whatever the
 * state thread is doing). Records the slowest answer of each and every probe that failed or was late.
 */
final class ResponsivenessProbe implements AutoCloseable {
    static final Duration READYZ_BOUND = Duration.ofSeconds(1);

    /** A client of its own, so that probes keep their connection and do not queue behind the requests under test. */
    private final ManagerClient client;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "responsiveness-probe");
        thread.setDaemon(true);
        return thread;
    });
    private final List<String> failures = new ArrayList<>();
    private long slowestReadyzMillis;
    private long slowestStateThreadMillis;
    private int probes;

    ResponsivenessProbe(SecureManager api) {
        this.client = ManagerClient.trusting(api.base, api.certificatePem, Duration.ofSeconds(30));
        timer.scheduleWithFixedDelay(this::probe, 0, 100, TimeUnit.MILLISECONDS);
    }

    private void probe() {
        long readyz = timed("/readyz", null);
        long stateThread = timed("/api/v1/namespaces/team-a", SecureManager.ADMIN);
        synchronized (this) {
            probes++;
            slowestReadyzMillis = Math.max(slowestReadyzMillis, readyz);
            slowestStateThreadMillis = Math.max(slowestStateThreadMillis, stateThread);
        }
    }

    private long timed(String path, String token) {
        long start = System.nanoTime();
        try {
            HttpResponse<String> response = (token == null ? client : client.withToken(token)).send("GET", path, null, null);
            if (response.statusCode() != 200) fail(path + " answered " + response.statusCode());
        } catch (Exception e) {
            fail(path + " failed: " + e);
        }
        return (System.nanoTime() - start) / 1_000_000;
    }

    private synchronized void fail(String failure) {
        if (failures.size() < 20) failures.add(failure);
    }

    /** Forgets what was seen so far: the next figures cover only what follows. */
    synchronized void reset() {
        failures.clear();
        slowestReadyzMillis = 0;
        slowestStateThreadMillis = 0;
        probes = 0;
    }

    synchronized List<String> failures() {
        return List.copyOf(failures);
    }

    synchronized long slowestReadyzMillis() {
        return slowestReadyzMillis;
    }

    synchronized long slowestStateThreadMillis() {
        return slowestStateThreadMillis;
    }

    synchronized int probes() {
        return probes;
    }

    @Override
    public void close() throws InterruptedException {
        timer.shutdownNow();
        timer.awaitTermination(30, TimeUnit.SECONDS);
    }
}
