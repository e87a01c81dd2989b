package dev.berth.benchmarks;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * {@code clients} threads POSTing Jobs as fast as the server answers, each waiting for its answer
 * before sending the next (HTTP/1.1, so each thread keeps one connection). Times every create.
 */
final class CreateLoad {
    private final HttpClient http;
    private final String baseUrl;
    private final String token;
    private final int clients;

    private CreateLoad(HttpClient http, String baseUrl, String token, int clients) {
        this.http = http;
        this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        this.token = token;
        this.clients = clients;
    }

    /** Over TLS, trusting only the given certificate (the quickstart's self-signed one). */
    static CreateLoad https(String baseUrl, Path certificate, String token, int clients) throws Exception {
        return new CreateLoad(HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(trusting(certificate))
                .connectTimeout(Duration.ofSeconds(10)).build(), baseUrl, token, clients);
    }

    /** TLS that trusts only the given certificate (the quickstart's self-signed one). */
    static SSLContext trusting(Path certificate) throws Exception {
        KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(certificate)) {
            trust.setCertificateEntry("berth", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trust);
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(null, factory.getTrustManagers(), null);
        return tls;
    }

    static CreateLoad plain(String baseUrl, String tokenOrNull, int clients) {
        return new CreateLoad(HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).build(), baseUrl, tokenOrNull, clients);
    }

    int clients() {
        return clients;
    }

    /** One GET; the body of a 200, else an exception naming the status. */
    String get(String path) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(60))
                .header("accept", "application/json").GET();
        if (token != null) request.header("authorization", "Bearer " + token);
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) throw new IllegalStateException("GET " + path + " answered " + response.statusCode());
        return response.body();
    }

    /** One merge patch (RFC 7386) of the object at {@code path}; its HTTP status. */
    int mergePatch(String path, String patch) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(60))
                .header("content-type", "application/merge-patch+json").header("accept", "application/json")
                .method("PATCH", HttpRequest.BodyPublishers.ofString(patch));
        if (token != null) request.header("authorization", "Bearer " + token);
        return http.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    /** Creates {@code count} Jobs in namespace team-a; bodies.apply(i) is the i-th Job's JSON. */
    Result run(String label, int count, IntFunction<String> bodies) throws InterruptedException {
        URI uri = URI.create(baseUrl + "/apis/batch/v1/namespaces/team-a/jobs");
        double[] millis = new double[count];
        AtomicInteger next = new AtomicInteger();
        Map<Integer, AtomicInteger> failures = new ConcurrentHashMap<>();
        CountDownLatch done = new CountDownLatch(clients);
        long started = System.nanoTime();
        for (int c = 0; c < clients; c++) {
            Thread thread = new Thread(() -> {
                try {
                    for (int i = next.getAndIncrement(); i < count; i = next.getAndIncrement()) {
                        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60))
                                .header("content-type", "application/json").header("accept", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString(bodies.apply(i)));
                        if (token != null) request.header("authorization", "Bearer " + token);
                        long sent = System.nanoTime();
                        int status;
                        try {
                            status = http.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
                        } catch (Exception e) {
                            status = -1;
                        }
                        millis[i] = (System.nanoTime() - sent) / 1e6;
                        if (status != 201) failures.computeIfAbsent(status, s -> new AtomicInteger()).incrementAndGet();
                    }
                } finally {
                    done.countDown();
                }
            }, label + "-client-" + c);
            thread.setDaemon(true);
            thread.start();
        }
        done.await();
        double seconds = (System.nanoTime() - started) / 1e9;
        int failed = failures.values().stream().mapToInt(AtomicInteger::get).sum();
        return new Result(count - failed, failed, seconds, new LatencySample(label, millis), new TreeMap<>(failures).toString());
    }

    /**
     * Accepted (201) creates, the others, the wall time of the round, every create's latency, the other answers by status
     * ({@code {}} when none). A round with any other answer is an error, never throughput.
     */
    record Result(int accepted, int refused, double seconds, LatencySample latency, String failures) {
        double perSecond() {
            return accepted / seconds;
        }
    }
}
