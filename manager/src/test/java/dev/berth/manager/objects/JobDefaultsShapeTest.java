package dev.berth.manager.objects;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

/**
 * The defaults run before validation, so a body of the wrong shape where a default goes must pass
 * through untouched for validation to refuse it with the field's name (the API fuzz test found a 500
 * from a Job whose pod template labels were a string).
 */
class JobDefaultsShapeTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aCreateWhoseTemplateLabelsAreAStringIsLeftAsItIs() throws Exception {
        ObjectNode job = (ObjectNode) JSON.readTree("""
                {"metadata":{"name":"j","uid":"u-1"},"spec":{"template":{"metadata":{"labels":"oops"}}}}""");
        ObjectNode before = job.deepCopy();

        JobDefaults.onCreate(job);

        assertThat(job).isEqualTo(before);
    }

    @Test
    void anUpdateWhoseSpecIsAStringIsLeftAsItIs() throws Exception {
        ObjectNode stored = (ObjectNode) JSON.readTree("""
                {"metadata":{"name":"j","uid":"u-1"},"spec":{"selector":{"matchLabels":{"a":"b"}},"template":{}}}""");
        ObjectNode incoming = (ObjectNode) JSON.readTree("""
                {"metadata":{"name":"j"},"spec":"oops"}""");
        ObjectNode before = incoming.deepCopy();

        JobDefaults.onUpdate(incoming, stored);
        JobDefaults.managedByMultiKueue(incoming, "kueue.x-k8s.io/multikueue");

        assertThat(incoming).isEqualTo(before);
    }

    @Test
    void aWellShapedCreateGetsTheGeneratedSelectorAndLabels() throws Exception {
        ObjectNode job = (ObjectNode) JSON.readTree("""
                {"metadata":{"name":"j","uid":"u-1"},"spec":{"template":{"spec":{}}}}""");

        JobDefaults.onCreate(job);

        assertThat(job.at("/spec/selector/matchLabels").path(JobDefaults.CONTROLLER_UID).asText()).isEqualTo("u-1");
        assertThat(job.at("/spec/template/metadata/labels").path(JobDefaults.JOB_NAME).asText()).isEqualTo("j");
    }
}
