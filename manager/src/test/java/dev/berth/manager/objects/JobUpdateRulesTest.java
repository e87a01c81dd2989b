package dev.berth.manager.objects;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

class JobUpdateRulesTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static ObjectNode job(boolean suspended, String extraSpec, String podSpec, String status) throws Exception {
        return (ObjectNode) JSON.readTree("""
                {"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"j","namespace":"a"},
                 "spec":{"suspend":%s,"parallelism":2,"completions":2,%s
                   "selector":{"matchLabels":{"batch.kubernetes.io/controller-uid":"u"}},
                   "template":{"metadata":{"labels":{"batch.kubernetes.io/controller-uid":"u"}},
                     "spec":{"restartPolicy":"Never",%s"containers":[{"name":"c","image":"i:1","resources":{"requests":{"cpu":"1","memory":"1Gi"}}}]}}},
                 "status":{%s}}""".formatted(suspended, extraSpec, podSpec, status));
    }

    @Test
    void aQueuedJobMayChangeItsSchedulingDirectives() throws Exception {
        ObjectNode stored = job(true, "", "", "");
        ObjectNode incoming = job(true, "", """
                "nodeSelector":{"pool":"a"},"tolerations":[{"key":"gpu","operator":"Exists"}],
                "affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[]}}},
                "schedulingGates":[{"name":"g"}],""", "");
        ((ObjectNode) incoming.at("/spec/template/metadata")).putObject("annotations").put("note", "x");
        assertThatCode(() -> JobUpdateRules.check(stored, incoming)).doesNotThrowAnyException();
        assertThatCode(() -> JobUpdateRules.check(incoming, stored)).as("and drop them again").doesNotThrowAnyException();
    }

    @Test
    void quantitiesCompareAsQuantitiesAndEmptyIsAbsent() throws Exception {
        ObjectNode stored = job(false, "", "", "\"startTime\":\"2026-12-04T00:00:00Z\"");
        ObjectNode incoming = stored.deepCopy();
        ObjectNode requests = (ObjectNode) incoming.at("/spec/template/spec/containers/0/resources/requests");
        requests.put("cpu", 1).put("memory", "1024Mi");
        ((ObjectNode) incoming.at("/spec/template/spec")).putArray("volumes");
        assertThatCode(() -> JobUpdateRules.check(stored, incoming)).doesNotThrowAnyException();
    }

    @Test
    void aStartedJobsTemplateIsImmutableEvenWhileSuspended() throws Exception {
        ObjectNode stored = job(true, "", "", "\"startTime\":\"2026-12-04T00:00:00Z\"");
        ObjectNode incoming = job(true, "", "\"nodeSelector\":{\"pool\":\"a\"},", "");
        assertThatThrownBy(() -> JobUpdateRules.check(stored, incoming)).isInstanceOf(InvalidObjectException.class)
                .hasMessageContaining("spec.template").hasMessageContaining("spec.template.spec.nodeSelector differs");
    }

    @Test
    void theImageRequestsAndImmutableFieldsNeverChange() throws Exception {
        ObjectNode stored = job(true, "\"completionMode\":\"NonIndexed\",", "", "");
        ObjectNode image = stored.deepCopy();
        ((ObjectNode) image.at("/spec/template/spec/containers/0")).put("image", "i:2");
        assertThatThrownBy(() -> JobUpdateRules.check(stored, image)).hasMessageContaining("containers[0].image differs");
        ObjectNode cpu = stored.deepCopy();
        ((ObjectNode) cpu.at("/spec/template/spec/containers/0/resources/requests")).put("cpu", "1001m");
        assertThatThrownBy(() -> JobUpdateRules.check(stored, cpu)).hasMessageContaining("requests.cpu differs");
        ObjectNode mode = stored.deepCopy();
        ((ObjectNode) mode.get("spec")).put("completionMode", "Indexed");
        assertThatThrownBy(() -> JobUpdateRules.check(stored, mode)).hasMessageContaining("spec.completionMode");
        ObjectNode selector = stored.deepCopy();
        ((ObjectNode) selector.at("/spec/selector/matchLabels")).put("x", "y");
        assertThatThrownBy(() -> JobUpdateRules.check(stored, selector)).hasMessageContaining("spec.selector");
        ObjectNode completions = stored.deepCopy();
        ((ObjectNode) completions.get("spec")).put("completions", 3);
        assertThatThrownBy(() -> JobUpdateRules.check(stored, completions)).hasMessageContaining("spec.completions");
        ObjectNode parallelism = stored.deepCopy();
        ((ObjectNode) parallelism.get("spec")).put("parallelism", 7);
        assertThatCode(() -> JobUpdateRules.check(stored, parallelism)).as("parallelism is mutable").doesNotThrowAnyException();
    }

    @Test
    void anIndexedJobsCompletionsChangeOnlyInTandemWithParallelism() throws Exception {
        ObjectNode stored = job(true, "\"completionMode\":\"Indexed\",", "", "");
        ObjectNode tandem = stored.deepCopy();
        ((ObjectNode) tandem.get("spec")).put("completions", 4).put("parallelism", 4);
        assertThatCode(() -> JobUpdateRules.check(stored, tandem)).doesNotThrowAnyException();
        ObjectNode alone = stored.deepCopy();
        ((ObjectNode) alone.get("spec")).put("completions", 4);
        assertThatThrownBy(() -> JobUpdateRules.check(stored, alone)).hasMessageContaining("in tandem with spec.parallelism");
    }
}
