package dev.berth.manager.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Field selectors allow the labels kube-apiserver allows for the kind and refuse any other with
 * 400 {@code field label not supported} (issue 13), on lists and on watches alike.
 */
class FieldSelectorHttpTest extends ApiServerFixture {
    private static final ResourceType EVENT = new ResourceType("", "v1", "events", "event", "Event", true, List.of("ev"), false);
    private static final ResourceType JOB = new ResourceType("batch", "v1", "jobs", "job", "Job", true, List.of(), true);
    private static final ResourceType NAMESPACE = new ResourceType("", "v1", "namespaces", "namespace", "Namespace", false, List.of(), true);

    @Test
    void anUnsupportedFieldIs400NamingTheField() throws Exception {
        post(GADGETS, gadget("g", "{}"));

        Reply refused = get(GADGETS + "?fieldSelector=spec.foo%3Dbar");

        assertThat(refused.code()).isEqualTo(400);
        assertThat(refused.body().get("reason").asText()).isEqualTo("BadRequest");
        assertThat(refused.body().get("message").asText()).isEqualTo("field label not supported: spec.foo");
        assertThat(get(WIDGETS + "?fieldSelector=metadata.namespace%3Dx").code())
                .as("a cluster-scoped kind has no metadata.namespace label").isEqualTo(400);
    }

    @Test
    void metadataNameAndNamespaceSelectEveryKind() throws Exception {
        post(GADGETS, gadget("g1", "{}"));
        post(GADGETS, gadget("g2", "{}"));

        assertThat(names(get(GADGETS + "?fieldSelector=metadata.name%3Dg2,metadata.namespace%3Dns1"))).containsExactly("g2");
        assertThat(names(get(GADGETS + "?fieldSelector=metadata.namespace!%3Dns1"))).isEmpty();
    }

    @Test
    void eachKindsOwnLabelsReadTheFieldsKubeReads() throws Exception {
        ObjectMapper json = new ObjectMapper();
        ObjectNode event = (ObjectNode) json.readTree(json("{'metadata':{'name':'e','namespace':'ns'},'reason':'Admitted','type':'Normal',"
                + "'source':{'component':'kueue'},'involvedObject':{'kind':'Workload','name':'w','namespace':'ns','uid':'u1'}}"));
        assertThat(FieldSelector.parse("involvedObject.kind=Workload,involvedObject.name=w,involvedObject.uid=u1,reason=Admitted",
                EVENT).matches(event)).isTrue();
        assertThat(FieldSelector.parse("source=kueue,type=Normal,involvedObject.namespace=ns", EVENT).matches(event)).isTrue();
        assertThat(FieldSelector.parse("type=Warning", EVENT).matches(event)).isFalse();

        ObjectNode job = (ObjectNode) json.readTree(json("{'metadata':{'name':'j'},'status':{'succeeded':1}}"));
        assertThat(FieldSelector.parse("status.successful=1", JOB).matches(job)).isTrue();
        ObjectNode namespace = (ObjectNode) json.readTree(json("{'metadata':{'name':'n'},'status':{'phase':'Active'}}"));
        assertThat(FieldSelector.parse("status.phase=Active", NAMESPACE).matches(namespace)).isTrue();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> FieldSelector.parse("spec.parallelism=1", JOB))
                .isInstanceOf(ApiException.class).hasMessage("field label not supported: spec.parallelism");
    }
}
