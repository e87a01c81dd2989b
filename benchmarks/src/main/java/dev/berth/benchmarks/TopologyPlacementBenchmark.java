package dev.berth.benchmarks;

import dev.berth.manager.dispatch.ClusterView;
import dev.berth.manager.dispatch.DispatchStrategy;
import dev.berth.manager.dispatch.FlavorCapacity;
import dev.berth.manager.dispatch.PlacementDecision;
import dev.berth.manager.dispatch.PlacementOptions;
import dev.berth.manager.dispatch.PlacementPolicy;
import dev.berth.manager.dispatch.PlacementRequest;
import dev.berth.manager.dispatch.PodSetDemand;
import dev.berth.manager.dispatch.TopologyNodes;
import dev.berth.manager.dispatch.TopologyRequest;
import dev.berth.manager.model.WorkloadKey;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Issue 18's placement benchmark: choosing a cluster and topology domain for a 64-pod gang over
 * 3 clusters x 8 blocks x 8 racks x 8 nodes (8 GPUs each, a seeded random part in use), through the
 * manager's real {@link PlacementPolicy}. Prints p50/p99 per request form as a Markdown table.
 *
 * <pre>java -cp benchmarks/target/benchmarks.jar dev.berth.benchmarks.TopologyPlacementBenchmark [iterations]</pre>
 */
public final class TopologyPlacementBenchmark {
    static final String GPU = "nvidia.com/gpu";
    static final List<String> LEVELS = List.of("cloud.provider.com/topology-block", "cloud.provider.com/topology-rack", "kubernetes.io/hostname");

    private TopologyPlacementBenchmark() {}

    public static void main(String[] args) {
        int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        Instant now = Instant.parse("2026-12-02T00:00:00Z");
        PlacementPolicy policy = new PlacementPolicy(Clock.fixed(now, ZoneOffset.UTC), PlacementOptions.DEFAULTS);
        Random random = new Random(18);
        List<ClusterView> clusters = new ArrayList<>();
        for (int c = 0; c < 3; c++) clusters.add(cluster("gpu-" + c, random, now));
        Map<String, TopologyRequest> forms = new java.util.LinkedHashMap<>();
        forms.put("required rack (1 GPU/pod)", TopologyRequest.required(LEVELS.get(1)));
        forms.put("required block (1 GPU/pod)", TopologyRequest.required(LEVELS.get(0)));
        forms.put("preferred rack (1 GPU/pod)", TopologyRequest.preferred(LEVELS.get(1)));
        forms.put("required block, rack slices of 8", TopologyRequest.required(LEVELS.get(0)).sliced(LEVELS.get(1), 8));
        System.out.println("| Request (64 pods, 3 clusters x 8 x 8 x 8 nodes) | Placed on | p50 (ms) | p99 (ms) | max (ms) |");
        System.out.println("|---|---|---|---|---|");
        for (Map.Entry<String, TopologyRequest> form : forms.entrySet()) {
            PlacementRequest request = new PlacementRequest(WorkloadKey.of("bench", "gang"), 0, List.of(new PodSetDemand("main", 64,
                    Map.of(GPU, 1L, "cpu", 4000L), Map.of(GPU, "h100", "cpu", "h100"), form.getValue())));
            PlacementDecision decision = null;
            for (int i = 0; i < iterations / 4; i++) decision = policy.place(request, clusters, DispatchStrategy.DEFAULT, null);
            long[] nanos = new long[iterations];
            for (int i = 0; i < iterations; i++) {
                long start = System.nanoTime();
                decision = policy.place(request, clusters, DispatchStrategy.DEFAULT, null);
                nanos[i] = System.nanoTime() - start;
            }
            Arrays.sort(nanos);
            String where = decision.placed() ? decision.clusters().get(0) + " " + decision.domainsOn(decision.clusters().get(0)).get(0).describe()
                    : "nowhere";
            System.out.printf("| %s | %s | %.3f | %.3f | %.3f |%n", form.getKey(), where, nanos[iterations / 2] / 1e6,
                    nanos[(int) (iterations * 0.99)] / 1e6, nanos[iterations - 1] / 1e6);
        }
    }

    private static ClusterView cluster(String name, Random random, Instant now) {
        List<TopologyNodes.Node> nodes = new ArrayList<>();
        long free = 0;
        for (int b = 0; b < 8; b++) {
            for (int r = 0; r < 8; r++) {
                for (int n = 0; n < 8; n++) {
                    long gpus = random.nextInt(4) == 0 ? random.nextInt(9) : 8;
                    free += gpus;
                    nodes.add(new TopologyNodes.Node(List.of("b" + b, "b" + b + "-r" + r, name + "-b" + b + "-r" + r + "-n" + n),
                            Map.of(GPU, gpus, "cpu", 96_000L)));
                }
            }
        }
        Map<String, Long> total = new HashMap<>(Map.of(GPU, free, "cpu", 96_000L * nodes.size()));
        FlavorCapacity h100 = new FlavorCapacity("h100", total, Map.of(GPU, 8L, "cpu", 96_000L), new TopologyNodes("default", LEVELS, nodes));
        return new ClusterView(name, true, false, now, Map.of("h100", h100));
    }
}
