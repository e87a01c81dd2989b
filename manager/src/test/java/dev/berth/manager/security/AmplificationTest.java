package dev.berth.manager.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.manager.security.SecureManager.Reply;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Small bodies that would become large objects, or large work on the single state thread: JSON patch
 * copies, moves and array shifts, YAML scalar and nested aliases, patches and field ownership that
 * grow an object past the size limit. Each is refused quickly with a 4xx naming the limit, nothing is
 * stored, and meanwhile {@code /readyz} answers within a second and a read served by the state thread
 * within the same bound as the refusal.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AmplificationTest {
    static final String WORKLOADS = "/apis/kueue.x-k8s.io/v1beta2/namespaces/team-a/workloads";
    static final String JOBS = "/apis/batch/v1/namespaces/team-a/jobs";
    static final String TARGET = WORKLOADS + "/target";
    static final String YAML = "application/yaml";
    static final String JSON_PATCH = "application/json-patch+json";
    /**
     * CPU milliseconds: far above what any refusal here costs once bounded; far below what the unbounded versions
     * cost (7 s to minutes). The probe's read bound below is wall time, as a client feels it.
     */
    static final long ANSWER_BOUND_MILLIS = 5_000;
    static final String NOTE = "n".repeat(1_000_000);

    @TempDir
    static Path dir;
    SecureManager api;
    ResponsivenessProbe probe;

    @BeforeAll
    void start() throws Exception {
        api = new SecureManager(dir, SecurityOptions.DEFAULT_TENANT_RATE, Optional.empty());
        created(api.send("POST", "/apis/rbac.authorization.k8s.io/v1/clusterroles", SecureManager.ADMIN, YAML,
                "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: patcher}\n"
                        + "rules: [{apiGroups: [kueue.x-k8s.io, batch], resources: [workloads, jobs], verbs: [patch, update]}]\n"));
        created(api.send("POST", "/apis/rbac.authorization.k8s.io/v1/namespaces/team-a/rolebindings", SecureManager.ADMIN, YAML,
                "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: alice-patches, namespace: team-a}\n"
                        + "roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: patcher}\n"
                        + "subjects: [{kind: User, name: alice}]\n"));
        created(api.send("POST", WORKLOADS, SecureManager.ALICE, YAML, workload("target", "")));
        created(api.send("POST", JOBS, SecureManager.ADMIN, YAML,
                TenantAuthorizationTest.job("big", "").replace("metadata:\n", "metadata:\n  annotations: {first: \"" + NOTE + "\"}\n")));
        probe = new ResponsivenessProbe(api);
    }

    @AfterAll
    void stop() throws Exception {
        probe.close();
        api.close();
    }

    @AfterEach
    void theServerStayedResponsive() {
        assertThat(probe.failures()).isEmpty();
        assertThat(probe.slowestReadyzMillis()).as("slowest /readyz (ms)").isLessThan(ResponsivenessProbe.READYZ_BOUND.toMillis());
        assertThat(probe.slowestStateThreadMillis()).as("slowest read served by the state thread (ms)").isLessThan(ANSWER_BOUND_MILLIS);
    }

    @ParameterizedTest(name = "{0} copies of /spec into itself")
    @ValueSource(ints = {20, 30, 1000})
    void copiesOfTheSpecIntoItselfAreRefusedBeforeTheyGrow(int copies) throws Exception {
        refusedQuickly(TARGET, JSON_PATCH, ops(copies, i -> copy("/spec", "/spec/copy" + i)), 422, "bytes copied by one patch");
    }

    @Test
    void copiesOfAnArrayIntoItselfAreRefused() throws Exception {
        refusedQuickly(TARGET, JSON_PATCH, ops(40, i -> copy("/spec/podSets", "/spec/podSets/-")), 422, "bytes copied by one patch");
    }

    @Test
    void aChainOfAddCopyAndMoveIsRefusedOnceItsCopiesPassTheLimit() throws Exception {
        String chain = "[{\"op\":\"add\",\"path\":\"/spec/grow\",\"value\":[\"" + "x".repeat(1000) + "\"]},"
                + ops(2000, i -> copy("/spec/grow", "/spec/step") + ",{\"op\":\"move\",\"from\":\"/spec/step\",\"path\":\"/spec/grow/-\"}")
                .substring(1);
        refusedQuickly(TARGET, JSON_PATCH, chain, 422, "bytes copied by one patch");
    }

    @Test
    void addsThatNestDeeperAndDeeperAreRefused() throws Exception {
        refusedQuickly(TARGET, JSON_PATCH, ops(150, i -> "{\"op\":\"add\",\"path\":\"/spec/d" + "/d".repeat(i) + "\",\"value\":{}}"),
                422, "more than the limit of 100");
    }

    @Test
    void insertsAtTheFrontOfAHugeArrayAreRefused() throws Exception {
        String array = IntStream.range(0, 500_000).mapToObj(i -> "0").collect(Collectors.joining(",", "[", "]"));
        String patch = "[{\"op\":\"add\",\"path\":\"/spec/big\",\"value\":" + array + "},"
                + ops(9_999, i -> "{\"op\":\"add\",\"path\":\"/spec/big/0\",\"value\":1}").substring(1);
        refusedQuickly(TARGET, JSON_PATCH, patch, 422, "moves array elements more than the limit");
    }

    @Test
    void moreOperationsThanKubeApiserverAllowsAreRefused() throws Exception {
        refusedQuickly(TARGET, JSON_PATCH, ops(10_001, i -> "{\"op\":\"test\",\"path\":\"/spec\",\"value\":null}"), 413,
                "maximum operations in a JSON patch is 10000");
    }

    @Test
    void yamlScalarAliasFanOutIsRefused() throws Exception {
        StringBuilder job = new StringBuilder(TenantAuthorizationTest.job("fanout", "").replace("metadata:\n",
                "metadata:\n  annotations:\n    a0: &s \"" + "x".repeat(100_000) + "\"\n"));
        int at = job.indexOf("\n", job.indexOf("    a0:")) + 1;
        for (int i = 1; i <= 40; i++) job.insert(at, "    a" + i + ": *s\n");
        refusedQuickly(JOBS, YAML, job.toString(), 400, "aliases expand to more than 262144 bytes");
    }

    @Test
    void yamlNestedAliasFanOutWithFewCollectionAliasesIsRefused() throws Exception {
        String yaml = "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata: {name: nested}\n"
                + "x:\n  l0: &l0 {k: \"" + "y".repeat(20_000) + "\"}\n"
                + "  l1: &l1 [*l0, *l0, *l0, *l0, *l0, *l0, *l0]\n"
                + "  l2: &l2 [*l1, *l1, *l1, *l1, *l1, *l1, *l1]\n"
                + "  l3: [*l2, *l2, *l2, *l2, *l2, *l2, *l2]\n"
                + workload("nested", "").substring(workload("nested", "").indexOf("spec:"));
        refusedQuickly(WORKLOADS, YAML, yaml, 400, "alias expansion is limited");
    }

    @Test
    void aServerSideApplyBodyWithScalarAliasFanOutIsRefused() throws Exception {
        StringBuilder applied = new StringBuilder("apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata:\n  name: target\n  annotations:\n"
                + "    a0: &s \"" + "z".repeat(50_000) + "\"\n");
        for (int i = 1; i <= 40; i++) applied.append("    a").append(i).append(": *s\n");
        refusedQuickly(TARGET + "?fieldManager=amplifier", "application/apply-patch+yaml", applied.toString(), 400, "alias expansion is limited");
    }

    @Test
    void aMergePatchThatMakesTheObjectTooLargeIsRefused() throws Exception {
        refusedQuickly(JOBS + "/big", "application/merge-patch+json", "{\"metadata\":{\"annotations\":{\"second\":\"" + NOTE + "\"}}}",
                413, "larger than the limit of 1572864");
    }

    @Test
    void aCreateWhoseStoredFormPassesTheLimitIsRefusedThoughItsBodyDoesNot() throws Exception {
        StringBuilder labels = new StringBuilder();
        for (int i = 0; i < 9_000; i++) labels.append("    label-").append(i).append("-").append("k".repeat(50)).append(": ").append("v".repeat(60)).append('\n');
        String body = TenantAuthorizationTest.job("labelled", "").replace("  labels:\n", "  labels:\n" + labels);
        assertThat(body.length()).isLessThan(ObjectLimits.MAX_OBJECT_BYTES);
        refusedQuickly(JOBS, YAML, body, 413, "once encoded as it would be stored");
    }

    @Test
    void aServerSideApplyOfManyFieldsOverManyManagersIsRefusedQuickly() throws Exception {
        StringBuilder managers = new StringBuilder();
        for (int i = 0; i < 5_000; i++) {
            managers.append(i == 0 ? "" : ",").append("{\"manager\":\"m").append(i).append("\",\"operation\":\"Update\",")
                    .append("\"fieldsType\":\"FieldsV1\",\"fieldsV1\":{\"f:spec\":{\"f:x").append(i).append("\":{}}}}");
        }
        String job = TenantAuthorizationTest.job("managed", "").replace("metadata:\n", "metadata:\n  managedFields: [" + managers + "]\n");
        created(api.send("POST", JOBS, SecureManager.ALICE, YAML, job));
        StringBuilder labels = new StringBuilder();
        for (int i = 0; i < 40_000; i++) labels.append("    l").append(i).append(": v\n");
        String applied = "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: managed\n  labels:\n" + labels;
        refusedQuickly(JOBS + "/managed?fieldManager=amplifier", "application/apply-patch+yaml", applied, 413, "larger than the limit");
    }

    private void refusedQuickly(String path, String contentType, String body, int code, String message) throws Exception {
        List<String> before = api.contents();
        probe.reset();
        long cpuBefore = processCpuNanos();
        Reply reply = api.send(contentType.contains("patch") ? "PATCH" : "POST", path, SecureManager.ALICE, contentType, body);
        long cpuMillis = (processCpuNanos() - cpuBefore) / 1_000_000;
        String shown = reply.body().toString();
        assertThat(reply.code()).as(shown.substring(0, Math.min(shown.length(), 500))).isEqualTo(code);
        assertThat(reply.message()).contains(message);
        assertThat(cpuMillis).as("CPU the whole process spent while the request was answered (ms)").isLessThan(ANSWER_BOUND_MILLIS);
        assertThat(api.contents()).isEqualTo(before);
    }

    /**
     * The CPU time of this process (client, server and probe): the work a request causes, which a loaded
     * machine does not stretch the way it stretches wall time.
     */
    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private static String ops(int count, IntFunction<String> op) {
        return IntStream.range(0, count).mapToObj(op).collect(Collectors.joining(",", "[", "]"));
    }

    private static String copy(String from, String path) {
        return "{\"op\":\"copy\",\"from\":\"" + from + "\",\"path\":\"" + path + "\"}";
    }

    static String workload(String name, String priorityClass) {
        return "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata:\n  name: " + name + "\n"
                + (priorityClass.isEmpty() ? "" : "  labels: {kueue.x-k8s.io/priority-class: " + priorityClass + "}\n")
                + "spec:\n  queueName: team-a-queue\n  podSets:\n  - name: main\n    count: 1\n    template:\n      spec:\n"
                + "        containers:\n        - name: c\n          image: agnhost\n          resources: {requests: {cpu: 1}}\n";
    }

    private static void created(Reply reply) {
        assertThat(reply.code()).as(reply.body().toString()).isEqualTo(201);
    }
}
