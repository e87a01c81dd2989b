package dev.berth.agent;

import dev.berth.protocol.crd.FlavorDefinition;
import dev.berth.protocol.crd.FlavorDefinition.TaintSpec;
import dev.berth.protocol.crd.FlavorDefinition.TolerationSpec;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Taint;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Fluent builders for the agent's tests. */
final class Fixtures {
    static final String A100 = "NVIDIA-A100-SXM4-40GB";
    static final String H100 = "NVIDIA-H100-80GB-HBM3";

    private Fixtures() {}

    static NodeFixture node(String name) {
        return new NodeFixture(name);
    }

    /** A GPU Operator style node: product label, gpu count, the nvidia.com/gpu=present:NoSchedule taint. */
    static NodeFixture gpuNode(String name, String product, int gpus) {
        return node(name).label("nvidia.com/gpu.product", product).label("nvidia.com/gpu.count", Integer.toString(gpus))
                .taint("nvidia.com/gpu", "present", "NoSchedule")
                .allocatable("nvidia.com/gpu", Integer.toString(gpus)).allocatable("cpu", "64").allocatable("memory", "512Gi")
                .allocatable("pods", "110");
    }

    static FlavorFixture flavor(String name) {
        return new FlavorFixture(name);
    }

    static FlavorDefinition a100() {
        return flavor("a100").label("nvidia.com/gpu.product", A100).tolerate("nvidia.com/gpu", "Exists", null, "NoSchedule").build();
    }

    static FlavorDefinition h100WithoutToleration() {
        return flavor("h100").label("nvidia.com/gpu.product", H100).build();
    }

    static Pod boundPod(String name, String node, String resource, String amount) {
        return new PodBuilder().withNewMetadata().withName(name).withNamespace("default").endMetadata()
                .withNewSpec().withNodeName(node).addNewContainer().withName("main").withNewResources()
                .addToRequests(resource, new Quantity(amount)).endResources().endContainer().endSpec()
                .withNewStatus().withPhase("Running").endStatus().build();
    }

    static final class NodeFixture {
        private final String name;
        private final Map<String, String> labels = new LinkedHashMap<>();
        private final List<Taint> taints = new ArrayList<>();
        private final Map<String, Quantity> allocatable = new LinkedHashMap<>();

        NodeFixture(String name) {
            this.name = name;
        }

        NodeFixture label(String key, String value) {
            labels.put(key, value);
            return this;
        }

        NodeFixture taint(String key, String value, String effect) {
            taints.add(new Taint(effect, key, null, value));
            return this;
        }

        NodeFixture allocatable(String resource, String amount) {
            allocatable.put(resource, new Quantity(amount));
            return this;
        }

        Node build() {
            return new NodeBuilder().withNewMetadata().withName(name).withLabels(labels).endMetadata()
                    .withNewSpec().withTaints(taints).endSpec()
                    .withNewStatus().withAllocatable(allocatable).withCapacity(allocatable).endStatus().build();
        }
    }

    static final class FlavorFixture {
        private final FlavorDefinition flavor = new FlavorDefinition();

        FlavorFixture(String name) {
            flavor.setName(name);
        }

        FlavorFixture label(String key, String value) {
            flavor.getNodeLabels().put(key, value);
            return this;
        }

        FlavorFixture taint(String key, String value, String effect) {
            flavor.getNodeTaints().add(new TaintSpec(key, value, effect));
            return this;
        }

        FlavorFixture tolerate(String key, String operator, String value, String effect) {
            flavor.getTolerations().add(new TolerationSpec(key, operator, value, effect));
            return this;
        }

        FlavorDefinition build() {
            return flavor;
        }
    }

    /** A clock tests move by hand. */
    static final class MutableClock extends Clock {
        private volatile Instant now;

        MutableClock(Instant start) {
            this.now = start;
        }

        void advance(Duration duration) {
            now = now.plus(duration);
        }

        void set(Instant instant) {
            now = instant;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
