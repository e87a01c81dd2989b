package dev.berth.agent;

import static dev.berth.agent.Templates.podSet;
import static dev.berth.agent.Templates.spec;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.protocol.Labels;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EarlierCopiesTest {
    private static final AttemptOwner NEW = new AttemptOwner("team-b", "job-train-2", "uid-2", "att-new", "job-train-2");

    private static List<RenderedObject> rendered(Map<String, Object> template) {
        return TemplateRenderer.render(NEW, spec("att-new", 2, template, Fixtures.a100(), podSet("main", 2, "1", "a100")));
    }

    private static Map<String, Object> owner(String kind, String namespace, String name, String attempt) {
        return Map.of("kind", kind, "metadata", Map.of("name", name, "namespace", namespace, "labels", Map.of(Labels.ATTEMPT_ID, attempt)));
    }

    private static Pod pod(String namespace, String name, String attempt) {
        return new PodBuilder().withNewMetadata().withNamespace(namespace).withName(name).addToLabels(Labels.ATTEMPT_ID, attempt).endMetadata().build();
    }

    @Test
    void anEarlierAttemptsObjectOfTheSameKindAndNameIsInTheWay() {
        var owners = Map.of("att-old", List.of(owner("Job", "team-b", "train", "att-old")));

        assertThat(EarlierCopies.inTheWay(rendered(Templates.job("train", 2, "1")), "att-new", owners, Map.of()))
                .contains("Job team-b/train of attempt att-old");
    }

    @Test
    void theAttemptsOwnObjectsAnotherNameKindOrNamespaceAreNotInTheWay() {
        var owners = Map.of(
                "att-new", List.of(owner("Job", "team-b", "train", "att-new")),
                "att-old", List.of(owner("Job", "team-b", "other", "att-old"), owner("JobSet", "team-b", "train", "att-old"),
                        owner("Job", "team-c", "train", "att-old")));

        assertThat(EarlierCopies.inTheWay(rendered(Templates.job("train", 2, "1")), "att-new", owners, Map.of())).isEmpty();
    }

    @Test
    void aPlainPodIsInTheWayOfAPodOfTheSameNameButAJobsPodsAreNot() {
        var pods = Map.of("att-old", List.of(pod("team-b", "p-1", "att-old"), pod("team-b", "train", "att-old")));

        assertThat(EarlierCopies.inTheWay(rendered(Templates.podList(2)), "att-new", Map.of(), pods))
                .contains("Pod team-b/p-1 of attempt att-old");
        assertThat(EarlierCopies.inTheWay(rendered(Templates.job("train", 2, "1")), "att-new", Map.of(), pods)).isEmpty();
    }
}
