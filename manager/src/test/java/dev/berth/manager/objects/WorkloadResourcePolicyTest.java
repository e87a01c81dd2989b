package dev.berth.manager.objects;

import static dev.berth.manager.objects.WorkloadResourcePolicy.Strategy.REPLACE;
import static dev.berth.manager.objects.WorkloadResourcePolicy.Strategy.RETAIN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.model.Amounts;
import dev.berth.manager.model.WorkloadRequest;
import dev.berth.manager.objects.WorkloadResourcePolicy.ResourceTransformation;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Kueue's Configuration resources.excludeResourcePrefixes and resources.transformations, row for row
 * the cases of Kueue's pkg/workload TestNewInfo (filterResources, transformResources, the allowance,
 * multiplyBy and milli-value cases), on one pod's requests in canonical units.
 */
class WorkloadResourcePolicyTest {
    private static final ResourceTransformation MIG_1G = ResourceTransformation.of("nvidia.com/mig-1g.5gb", REPLACE,
            Map.of("example.com/accelerator-memory", "5Ki", "example.com/credits", "10"));
    private static final ResourceTransformation MIG_2G = ResourceTransformation.of("nvidia.com/mig-2g.10gb", REPLACE,
            Map.of("example.com/accelerator-memory", "10Ki", "example.com/credits", "15"));
    private static final ResourceTransformation GPU = ResourceTransformation.of("nvidia.com/gpu", RETAIN,
            Map.of("example.com/accelerator-memory", "40Ki", "example.com/credits", "100"));
    private static final ResourceTransformation VGPU_CORES = ResourceTransformation.of("nvidia.com/vgpucores", REPLACE,
            "nvidia.com/vgpu", Map.of("nvidia.com/total-vgpucores", "1"));
    private static final ResourceTransformation VGPU_MEM = ResourceTransformation.of("nvidia.com/vgpumem", REPLACE,
            "nvidia.com/vgpu", Map.of("nvidia.com/total-vgpumem", "1"));
    private static final List<ResourceTransformation> KUEUE_TRANSFORMS = List.of(MIG_1G, MIG_2G, GPU, VGPU_CORES, VGPU_MEM);
    private static final List<ResourceTransformation> ALLOWANCE = List.of(
            ResourceTransformation.of("nvidia.com/gpumem", REPLACE, "nvidia.com/gpu", Map.of("quota.example.com/gpu-memory-overage", "1")),
            ResourceTransformation.of("nvidia.com/gpu", RETAIN, Map.of("quota.example.com/gpu-memory-overage", "-1024")));

    static Stream<Arguments> rows() {
        return Stream.of(
                arguments("an excluded prefix drops the resource, others stay (filterResources)",
                        new WorkloadResourcePolicy(List.of("dummyPrefix", "networking.example.com/"), List.of()),
                        Map.of("cpu", 10L, "memory", 512L * 1024, "networking.example.com/vpc1", 1L),
                        Map.of("cpu", 10L, "memory", 512L * 1024)),
                arguments("Replace turns MIG slices into memory and credits (transformResources a)", transforms(KUEUE_TRANSFORMS),
                        Map.of("nvidia.com/mig-1g.5gb", 2L, "nvidia.com/mig-2g.10gb", 1L, "cpu", 1000L),
                        Map.of("cpu", 1000L, "example.com/accelerator-memory", 20L * 1024, "example.com/credits", 35L)),
                arguments("Retain keeps the gpu next to its outputs (transformResources b, per pod)", transforms(KUEUE_TRANSFORMS),
                        Map.of("nvidia.com/gpu", 1L, "cpu", 2000L),
                        Map.of("cpu", 2000L, "example.com/accelerator-memory", 40L * 1024, "example.com/credits", 100L, "nvidia.com/gpu", 1L)),
                arguments("multiplyBy scales the outputs by the vgpu count (transformResources c)", transforms(KUEUE_TRANSFORMS),
                        Map.of("nvidia.com/vgpu", 2L, "nvidia.com/vgpucores", 20L, "nvidia.com/vgpumem", 1024L),
                        Map.of("nvidia.com/vgpu", 2L, "nvidia.com/total-vgpucores", 40L, "nvidia.com/total-vgpumem", 2048L)),
                arguments("an allowance charges what exceeds it", transforms(ALLOWANCE),
                        Map.of("nvidia.com/gpumem", 2048L, "nvidia.com/gpu", 2L),
                        Map.of("quota.example.com/gpu-memory-overage", 2048L, "nvidia.com/gpu", 2L)),
                arguments("an allowance met exactly charges nothing", transforms(ALLOWANCE),
                        Map.of("nvidia.com/gpumem", 1024L, "nvidia.com/gpu", 2L), Map.of("nvidia.com/gpu", 2L)),
                arguments("an allowance not reached is floored at zero", transforms(ALLOWANCE),
                        Map.of("nvidia.com/gpumem", 512L, "nvidia.com/gpu", 2L), Map.of("nvidia.com/gpu", 2L)),
                arguments("an allowance does not reach a direct request of the same name",
                        transforms(List.of(ResourceTransformation.of("example.com/credit", REPLACE, Map.of("example.com/gpu", "-1")))),
                        Map.of("example.com/gpu", 8L, "example.com/credit", 3L), Map.of("example.com/gpu", 8L)),
                arguments("an output sharing a name with a request is added to it",
                        transforms(List.of(ResourceTransformation.of("example.com/credit", REPLACE, Map.of("example.com/gpu", "1")))),
                        Map.of("example.com/gpu", 1L, "example.com/credit", 1L), Map.of("example.com/gpu", 2L)),
                arguments("an output naming its own retained input is added to it",
                        transforms(List.of(ResourceTransformation.of("example.com/gpu", RETAIN, Map.of("example.com/gpu", "5")))),
                        Map.of("example.com/gpu", 1L), Map.of("example.com/gpu", 6L)),
                arguments("Retain with multiplyBy keeps the input as requested",
                        transforms(List.of(ResourceTransformation.of("example.com/gpumem", RETAIN, "example.com/gpu", Map.of("example.com/gpumem-quota", "1")))),
                        Map.of("example.com/gpumem", 1024L, "example.com/gpu", 2L),
                        Map.of("example.com/gpumem", 1024L, "example.com/gpumem-quota", 2048L, "example.com/gpu", 2L)),
                arguments("a multiplier below one (500m cpu) halves the output; the strategy defaults to Retain",
                        transforms(List.of(ResourceTransformation.of("example.com/gpumem", null, "cpu", Map.of("example.com/gpumem-quota", "1")))),
                        Map.of("example.com/gpumem", 1024L, "cpu", 500L),
                        Map.of("example.com/gpumem", 1024L, "example.com/gpumem-quota", 512L, "cpu", 500L)),
                arguments("multiplyBy with Retain adds to the input of the same name",
                        transforms(List.of(ResourceTransformation.of("example.com/gpu", RETAIN, "example.com/node", Map.of("example.com/gpu", "1")))),
                        Map.of("example.com/gpu", 1L, "example.com/node", 2L), Map.of("example.com/gpu", 3L, "example.com/node", 2L)),
                arguments("a product past the range saturates, it is not floored away",
                        transforms(List.of(ResourceTransformation.of("example.com/credit", REPLACE, Map.of("example.com/gpu", "10000000000")))),
                        Map.of("example.com/credit", 10_000_000_000L), Map.of("example.com/gpu", Amounts.MAX)),
                arguments("milli values: 100m cpu times 3000 is 300, 100M memory times 3m is 300k",
                        transforms(List.of(ResourceTransformation.of("cpu", REPLACE, Map.of("example.com/cpu-credits", "3000")),
                                ResourceTransformation.of("memory", REPLACE, Map.of("example.com/memory-credits", "3m")))),
                        Map.of("cpu", 100L, "memory", 100_000_000L),
                        Map.of("example.com/cpu-credits", 300L, "example.com/memory-credits", 300_000L)),
                arguments("exclusion comes before transformation",
                        new WorkloadResourcePolicy(List.of("nvidia.com/mig"), List.of(MIG_1G)),
                        Map.of("nvidia.com/mig-1g.5gb", 2L, "cpu", 1000L), Map.of("cpu", 1000L)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void countsAPodsRequestsAsKueueDoes(String behaviour, WorkloadResourcePolicy policy, Map<String, Long> requested, Map<String, Long> counted) {
        assertThat(policy.quotaRequests(requested)).isEqualTo(counted);
    }

    @Test
    void withoutSettingsEveryRequestCounts() {
        Map<String, Long> requested = Map.of("cpu", 1000L, "example.com/ignored", 1L);
        assertThat(WorkloadResourcePolicy.NONE.quotaRequests(requested)).isEqualTo(requested);
    }

    @Test
    void theDecodedWorkloadCountsTransformedRequestsTimesThePodCountAndKeepsTheTemplate() {
        ObjectNode workload = Yaml.object("Workload", "w", "podSets:\n- name: main\n  count: 3\n  template:\n    spec:\n"
                + "      containers:\n      - name: c\n        resources:\n          requests:\n"
                + "            nvidia.com/mig-1g.5gb: 2\n            example.com/ignored: 1\n");
        ObjectNode before = workload.deepCopy();

        WorkloadRequest request = WorkloadDecoder.request(workload,
                new WorkloadResourcePolicy(List.of("example.com/"), List.of(ResourceTransformation.of("nvidia.com/mig-1g.5gb", REPLACE,
                        Map.of("example.org/accelerator-memory", "5Gi")))));

        assertThat(request.podSets().get(0).perPodRequests()).isEqualTo(Map.of("example.org/accelerator-memory", 10L << 30));
        assertThat(request.podSets().get(0).count()).isEqualTo(3);
        assertThat(workload).isEqualTo(before);
    }

    @Test
    void anInputListedTwiceIsRefused() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> transforms(List.of(MIG_1G, MIG_1G)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("nvidia.com/mig-1g.5gb");
    }

    private static WorkloadResourcePolicy transforms(List<ResourceTransformation> transformations) {
        return new WorkloadResourcePolicy(List.of(), transformations);
    }
}
