package dev.berth.agent;

import static dev.berth.agent.Fixtures.a100;
import static dev.berth.agent.Templates.podSet;
import static dev.berth.agent.Templates.spec;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.protocol.crd.ProvisioningAsk;
import dev.berth.protocol.crd.ProvisioningProgress;
import dev.berth.protocol.crd.RemoteWorkloadSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The objects the agent creates for capacity on request, in the shapes Kueue's provisioning controller creates. */
class ProvisioningRequestRendererTest {
    private static final AttemptOwner OWNER = new AttemptOwner("team-a", "rw-train", "uid-1", "att-1", "job-train");

    @Test
    @SuppressWarnings("unchecked")
    void aRequestNamesOnePodTemplatePerPodSetWithItsCountAndTheFlavorPinnedTemplate() {
        RemoteWorkloadSpec spec = spec("att-1", 1, Templates.job("train", 2, "8"), a100(), podSet("main", 2, "8", "a100"));
        spec.setProvisioning(ask(List.of()));

        ProvisioningRequestRenderer.Rendered rendered = ProvisioningRequestRenderer.render(OWNER, spec);

        Map<String, Object> request = rendered.request();
        assertThat(request.get("apiVersion")).isEqualTo("autoscaling.x-k8s.io/v1");
        assertThat(((Map<String, Object>) request.get("metadata")).get("name")).isEqualTo("job-train-scale-up-2");
        Map<String, Object> requestSpec = (Map<String, Object>) request.get("spec");
        assertThat(requestSpec.get("provisioningClassName")).isEqualTo("check-capacity.autoscaling.x-k8s.io");
        assertThat(requestSpec.get("parameters")).isEqualTo(Map.of("ValidUntilSeconds", "60"));
        assertThat((List<Object>) requestSpec.get("podSets")).containsExactly(
                Map.of("podTemplateRef", Map.of("name", "ppt-job-train-scale-up-2-main"), "count", 2));
        Map<String, Object> template = rendered.podTemplates().get(0);
        assertThat(((Map<String, Object>) template.get("metadata")).get("ownerReferences").toString()).contains("uid-1", "RemoteWorkload");
        Map<String, Object> podSpec = (Map<String, Object>) ((Map<String, Object>) template.get("template")).get("spec");
        assertThat((Map<String, Object>) podSpec.get("nodeSelector")).containsEntry("nvidia.com/gpu.product", Fixtures.A100);
    }

    @Test
    void podSetsWithoutAManagedResourceStayOutOfTheRequest() {
        RemoteWorkloadSpec spec = spec("att-1", 1, Templates.job("train", 2, "8"), a100(), podSet("main", 2, "8", "a100"));
        spec.setProvisioning(ask(List.of("example.com/fpga")));

        assertThat(ProvisioningRequestRenderer.render(OWNER, spec).podTemplates()).isEmpty();
    }

    @Test
    void theProgressCarriesTheConditionsAndThePodsGetKueuesConsumeAnnotations() {
        ProvisioningAsk ask = ask(List.of());
        Map<String, Object> request = Map.of("metadata", Map.of("creationTimestamp", "2026-12-02T07:00:00Z"), "status", Map.of(
                "conditions", List.of(Map.of("type", "Accepted", "status", "True", "reason", "Accepted"),
                        Map.of("type", "Provisioned", "status", "True", "reason", "Provisioned", "message", "2 nodes added"))));

        ProvisioningProgress progress = ProvisioningRequestRenderer.progress(ask, request);

        assertThat(progress.getRequestName()).isEqualTo("job-train-scale-up-2");
        assertThat(progress.getAttempt()).isEqualTo(2);
        assertThat(progress.getCreatedTime()).isEqualTo("2026-12-02T07:00:00Z");
        assertThat(ProvisioningRequestRenderer.isTrue(progress, "Provisioned")).isTrue();
        assertThat(ProvisioningRequestRenderer.consumeAnnotations(ask)).isEqualTo(Map.of(
                "autoscaling.x-k8s.io/consume-provisioning-request", "job-train-scale-up-2",
                "autoscaling.x-k8s.io/provisioning-class-name", "check-capacity.autoscaling.x-k8s.io"));
    }

    private static ProvisioningAsk ask(List<String> managed) {
        ProvisioningAsk ask = new ProvisioningAsk();
        ask.setCheck("scale-up");
        ask.setAttempt(2);
        ask.setRequestName("job-train-scale-up-2");
        ask.setProvisioningClassName("check-capacity.autoscaling.x-k8s.io");
        ask.setParameters(new java.util.LinkedHashMap<>(Map.of("ValidUntilSeconds", "60")));
        ask.setManagedResources(managed);
        return ask;
    }
}
