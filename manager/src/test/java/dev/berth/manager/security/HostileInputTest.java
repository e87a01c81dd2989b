package dev.berth.manager.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.security.SecureManager.Reply;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Malformed, oversized and hostile bodies sent over HTTPS by a tenant: exact code, a clear message, nothing stored. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HostileInputTest {
    static final String JOBS = "/apis/batch/v1/namespaces/team-a/jobs";
    static final String WORKLOADS = "/apis/kueue.x-k8s.io/v1beta2/namespaces/team-a/workloads";

    @TempDir
    static Path dir;
    SecureManager api;

    @BeforeAll
    void start() throws Exception {
        api = new SecureManager(dir, new SecurityOptions.RateLimit(1, 2), Optional.empty());
    }

    @AfterAll
    void stop() throws Exception {
        api.close();
    }

    record Hostile(String what, String path, String contentType, byte[] body, int code, String message) {
        @Override
        public String toString() {
            return what;
        }
    }

    static Stream<Hostile> hostileInputs() {
        String job = TenantAuthorizationTest.job("j", "");
        return Stream.of(
                new Hostile("deeply nested JSON", JOBS, "application/json", ("{\"a\":".repeat(5000) + "1" + "}".repeat(5000)).getBytes(), 400, "nesting depth"),
                new Hostile("invalid UTF-8", JOBS, "application/yaml", new byte[] {'a', ':', ' ', (byte) 0xC3, (byte) 0x28}, 400, "not valid UTF-8"),
                new Hostile("duplicate keys", JOBS, "application/json", "{\"kind\":\"Job\",\"kind\":\"Pod\"}".getBytes(), 400, "Duplicate field"),
                new Hostile("a YAML alias bomb", JOBS, "application/yaml", aliasBomb().getBytes(), 400, "yaml"),
                new Hostile("an oversized body", JOBS, "application/yaml", new byte[4 * 1024 * 1024], 413, "larger than the limit"),
                new Hostile("a huge string", JOBS, "application/json", utf8("{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\",\"metadata\":"
                        + "{\"name\":\"j\",\"annotations\":{\"x\":\"" + "y".repeat(2_000_000) + "\"}}}"), 413, "larger than the limit of 1572864"),
                new Hostile("a name that is not DNS-1123", JOBS, "application/yaml", job.replace("name: j", "name: Bad_Name").getBytes(), 422, "metadata.name"),
                new Hostile("a label value too long", JOBS, "application/yaml",
                        job.replace("team-queue", "q".repeat(70)).getBytes(), 422, "metadata.labels"),
                new Hostile("a negative quantity", JOBS, "application/yaml", job.replace("{cpu: 1}", "{cpu: \"-1\"}").getBytes(), 422,
                        "must be greater than or equal to 0"),
                new Hostile("an enormous quantity", JOBS, "application/yaml", job.replace("{cpu: 1}", "{cpu: \"1e25\"}").getBytes(), 422, "must be at most"),
                new Hostile("nine pod sets", WORKLOADS, "application/yaml", workloadWithPodSets(9).getBytes(), 422, "must have at most 8"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("hostileInputs")
    void isRefusedAndNothingIsStored(Hostile input) throws Exception {
        List<String> before = api.contents();
        Reply reply = api.sendBytes("POST", input.path(), SecureManager.ADMIN, input.contentType(), input.body());
        assertThat(reply.code()).as(reply.body().toString().substring(0, Math.min(500, reply.body().toString().length()))).isEqualTo(input.code());
        assertThat(reply.body().path("kind").asText()).isEqualTo("Status");
        assertThat(reply.body().toString()).contains(input.message());
        assertThat(api.contents()).isEqualTo(before);
    }

    @Test
    void aTenantOverItsRateGets429WithRetryAfterAndTheAuditLogRecordsIt() throws Exception {
        api.sendBytes("POST", JOBS, SecureManager.ADMIN, "application/json", utf8("{}"));
        Reply last = null;
        for (int i = 0; i < 5 && (last == null || last.code() != 429); i++) {
            last = api.get("/apis/batch/v1/namespaces/team-a/jobs", SecureManager.ALICE);
        }
        assertThat(last.code()).isEqualTo(429);
        assertThat(last.body().path("reason").asText()).isEqualTo("TooManyRequests");
        assertThat(Integer.parseInt(last.headers().firstValue("Retry-After").orElseThrow())).isPositive();
        List<String> audit = api.auditLines();
        assertThat(audit).anySatisfy(line -> assertThat(line).contains("\"user\":\"alice\"").contains("\"code\":429"));
        assertThat(audit).anySatisfy(line -> assertThat(line).contains("\"user\":\"admin\"").contains("\"verb\":\"create\""));
        assertThat(String.join("\n", audit)).doesNotContain(SecureManager.ADMIN).doesNotContain(SecureManager.ALICE).doesNotContain("agnhost");
    }

    private static String aliasBomb() {
        StringBuilder yaml = new StringBuilder("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
        for (char c = 'b'; c <= 'j'; c++) {
            char p = (char) (c - 1);
            yaml.append(c).append(": &").append(c).append(" [*").append(p).append(",*").append(p).append(",*").append(p).append(",*")
                    .append(p).append(",*").append(p).append(",*").append(p).append(",*").append(p).append(",*").append(p).append("]\n");
        }
        return yaml.toString();
    }

    private static String workloadWithPodSets(int count) {
        StringBuilder yaml = new StringBuilder("apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata: {name: w}\nspec:\n  queueName: team-a-queue\n  podSets:\n");
        for (int i = 0; i < count; i++) {
            yaml.append("  - name: ps").append(i).append("\n    count: 1\n    template:\n      spec:\n        containers:\n        - name: c\n          image: i\n");
        }
        return yaml.toString();
    }

    static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
