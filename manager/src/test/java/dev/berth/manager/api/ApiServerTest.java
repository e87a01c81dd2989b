package dev.berth.manager.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The HTTP surface: the operations that succeed, and the shapes of their answers. */
class ApiServerTest extends ApiServerFixture {
    @Test
    void createGetAndList() throws Exception {
        Reply created = call("POST", WIDGETS, JSON_TYPE, widget("a", "{'size':1}"));

        assertThat(created.code()).isEqualTo(201);
        assertThat(created.body().at("/metadata/uid").asText()).isNotEmpty();
        assertThat(created.body().at("/metadata/resourceVersion").asText()).isEqualTo("1");
        assertThat(created.body().at("/metadata/generation").asInt()).isEqualTo(1);
        assertThat(created.body().get("apiVersion").asText()).isEqualTo("test.berth.dev/v1");

        Reply fetched = get(WIDGETS + "/a");
        assertThat(fetched.code()).isEqualTo(200);
        assertThat(fetched.body()).isEqualTo(created.body());

        Reply list = get(WIDGETS);
        assertThat(list.code()).isEqualTo(200);
        assertThat(list.body().get("kind").asText()).isEqualTo("WidgetList");
        assertThat(list.body().get("apiVersion").asText()).isEqualTo("test.berth.dev/v1");
        assertThat(list.body().at("/metadata/resourceVersion").asText()).isEqualTo("1");
        assertThat(names(list)).containsExactly("a");
        assertThat(widgetHooks.events).containsExactly("stored a@1");
        assertThat(widgetHooks.threads).as("hooks run on the state thread").containsExactly("state");
    }

    @Test
    void aKindIsServedAtEachOfItsVersions() throws Exception {
        call("POST", "/apis/test.berth.dev/v1alpha1/widgets", JSON_TYPE,
                widget("a", "{}").replace("test.berth.dev/v1\"", "test.berth.dev/v1alpha1\""));

        assertThat(get("/apis/test.berth.dev/v1alpha1/widgets/a").body().get("apiVersion").asText()).isEqualTo("test.berth.dev/v1alpha1");
        assertThat(get(WIDGETS + "/a").body().get("apiVersion").asText()).isEqualTo("test.berth.dev/v1");
        assertThat(get("/apis/test.berth.dev/v2/widgets").code()).isEqualTo(404);
    }

    @Test
    void healthAndVersion() throws Exception {
        assertThat(get("/healthz").code()).isEqualTo(200);
        assertThat(get("/readyz").code()).isEqualTo(200);
        assertThat(get("/version").body().get("gitVersion").asText()).isEqualTo("v1.32.0-berth");
    }

    @Test
    void labelSelectorsFilterLists() throws Exception {
        post(GADGETS, gadget("a", "{'team':'red','tier':'1'}"));
        post(GADGETS, gadget("b", "{'team':'blue'}"));
        post(GADGETS, gadget("c", "{}"));
        post("/apis/test.berth.dev/v1/namespaces/ns2/gadgets", gadget("d", "{'team':'red'}"));

        assertThat(names(get(GADGETS + "?labelSelector=" + enc("team=red")))).containsExactly("a");
        assertThat(names(get(GADGETS + "?labelSelector=" + enc("team!=red")))).containsExactly("b", "c");
        assertThat(names(get(GADGETS + "?labelSelector=" + enc("team")))).containsExactly("a", "b");
        assertThat(names(get(GADGETS + "?labelSelector=" + enc("!team")))).containsExactly("c");
        assertThat(names(get(GADGETS + "?labelSelector=" + enc("team in (red,blue),tier")))).containsExactly("a");
        assertThat(names(get(GADGETS + "?labelSelector=" + enc("team notin (red)")))).containsExactly("b", "c");
        assertThat(names(get("/apis/test.berth.dev/v1/gadgets?labelSelector=" + enc("team=red")))).containsExactly("a", "d");
        assertThat(get(GADGETS + "?labelSelector=" + enc("team in (red")).code()).isEqualTo(400);
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    @Test
    void replaceBumpsGenerationAndAStaleVersionIsAConflict() throws Exception {
        post(WIDGETS, widget("a", "{'size':1}"));
        ObjectNode update = (ObjectNode) JSON.readTree(widget("a", "{'size':2}"));
        ((ObjectNode) update.get("metadata")).put("resourceVersion", "1");

        Reply replaced = call("PUT", WIDGETS + "/a", JSON_TYPE, update.toString());
        assertThat(replaced.code()).isEqualTo(200);
        assertThat(replaced.body().at("/metadata/generation").asInt()).isEqualTo(2);
        assertThat(replaced.body().at("/metadata/resourceVersion").asText()).isEqualTo("2");

        ((ObjectNode) update.get("spec")).put("size", 3);
        Reply stale = call("PUT", WIDGETS + "/a", JSON_TYPE, update.toString());
        assertThat(stale.code()).isEqualTo(409);
        assertThat(stale.body().get("reason").asText()).isEqualTo("Conflict");
        assertThat(stale.body().get("message").asText()).isEqualTo("Operation cannot be fulfilled on widgets.test.berth.dev \"a\": "
                + "the object has been modified; please apply your changes to the latest version and try again");
        assertThat(store.revision()).isEqualTo(2);
        assertThat(get(WIDGETS + "/a").body().at("/spec/size").asInt()).isEqualTo(2);
    }

    @Test
    void mergePatchChangesOnlyTheNamedFields() throws Exception {
        post(WIDGETS, widget("a", "{'size':1,'color':'red'}"));
        Reply patched = call("PATCH", WIDGETS + "/a", MERGE, json("{'spec':{'color':null,'shape':'round'}}"));
        assertThat(patched.code()).isEqualTo(200);
        assertThat(patched.body().get("spec")).isEqualTo(JSON.readTree(json("{'size':1,'shape':'round'}")));

        Reply stale = call("PATCH", WIDGETS + "/a", MERGE, json("{'metadata':{'resourceVersion':'1'},'spec':{'size':9}}"));
        assertThat(stale.code()).isEqualTo(409);
        assertThat(call("PATCH", WIDGETS + "/a", JSON_TYPE, "{}").code()).isEqualTo(415);
    }

    @Test
    void deleteReturnsTheObjectThenItIsNotFound() throws Exception {
        post(WIDGETS, widget("a", "{}"));
        Reply deleted = call("DELETE", WIDGETS + "/a", null, (byte[]) null);
        assertThat(deleted.code()).isEqualTo(200);
        assertThat(deleted.body().at("/metadata/name").asText()).isEqualTo("a");

        Reply missing = get(WIDGETS + "/a");
        assertThat(missing.code()).isEqualTo(404);
        assertThat(missing.body().get("kind").asText()).isEqualTo("Status");
        assertThat(missing.body().get("status").asText()).isEqualTo("Failure");
        assertThat(missing.body().get("reason").asText()).isEqualTo("NotFound");
        assertThat(missing.body().get("message").asText()).isEqualTo("widgets.test.berth.dev \"a\" not found");
        assertThat(missing.body().get("details")).isEqualTo(JSON.readTree(json("{'name':'a','group':'test.berth.dev','kind':'widgets'}")));
        assertThat(missing.body().get("code").asInt()).isEqualTo(404);
        assertThat(call("DELETE", WIDGETS + "/a", null, (byte[]) null).code()).isEqualTo(404);
        assertThat(widgetHooks.events).containsExactly("stored a@1", "deleted a");
    }

    @Test
    void statusIsWrittenOnlyThroughTheStatusSubresource() throws Exception {
        post(GADGETS, gadget("g", "{}"));
        String withStatus = json("{'apiVersion':'test.berth.dev/v1','kind':'Gadget','metadata':{'name':'g'},'spec':{'size':1},'status':{'count':2,'phase':'Ready'}}");

        Reply put = call("PUT", GADGETS + "/g/status", JSON_TYPE, withStatus);
        assertThat(put.code()).isEqualTo(200);
        assertThat(put.body().at("/status/count").asInt()).isEqualTo(2);
        assertThat(put.body().at("/metadata/generation").asInt()).isEqualTo(1);

        Reply patched = call("PATCH", GADGETS + "/g/status", MERGE, json("{'status':{'phase':null,'count':3}}"));
        assertThat(patched.code()).isEqualTo(200);
        assertThat(patched.body().get("status")).isEqualTo(JSON.readTree("{\"count\":3}"));

        Reply replaced = call("PUT", GADGETS + "/g", JSON_TYPE, withStatus.replace("'size':1", "'size':2").replace("\"size\":1", "\"size\":2"));
        assertThat(replaced.body().at("/status/count").asInt()).isEqualTo(3);
        assertThat(replaced.body().at("/metadata/generation").asInt()).isEqualTo(2);
        assertThat(get(GADGETS + "/g/status").body().at("/status/count").asInt()).isEqualTo(3);

        long revision = store.revision();
        Reply refused = call("PATCH", GADGETS + "/g/status", MERGE, json("{'status':{'count':-1}}"));
        assertThat(refused.code()).isEqualTo(422);
        assertThat(refused.body().at("/details/causes/0/field").asText()).isEqualTo("status.count");
        assertThat(store.revision()).isEqualTo(revision);
        assertThat(get(WIDGETS + "/x/status").code()).isEqualTo(404);
    }

    @Test
    void yamlBodiesAreAccepted() throws Exception {
        String yaml = """
                apiVersion: test.berth.dev/v1
                kind: Gadget
                metadata:
                  name: y
                  labels: {team: red}
                spec:
                  size: 3
                  since: 2024-01-01T00:00:00Z
                """;
        Reply created = call("POST", GADGETS, YAML, yaml);
        assertThat(created.code()).isEqualTo(201);
        assertThat(created.body().at("/metadata/namespace").asText()).isEqualTo("ns1");
        assertThat(created.body().at("/spec/size").asInt()).isEqualTo(3);
        assertThat(created.body().at("/spec/since").asText()).isEqualTo("2024-01-01T00:00:00Z");
    }

    @Test
    void generateNameAppendsFiveCharacters() throws Exception {
        Reply created = post(WIDGETS, json("{'apiVersion':'test.berth.dev/v1','kind':'Widget','metadata':{'generateName':'w-'}}"));
        assertThat(created.code()).isEqualTo(201);
        assertThat(created.body().at("/metadata/name").asText()).matches("w-[a-z0-9]{5}");
    }

    @Test
    void warningsFromHooksBecomeWarningHeaders() throws Exception {
        Reply created = post(WIDGETS, widget("a", "{'old':1}"));
        assertThat(created.code()).isEqualTo(201);
        assertThat(created.headers().allValues("Warning")).containsExactly("299 - \"spec.old is deprecated; use \\\"spec.new\\\"\"");
    }

    @Test
    void anAdmissionRefusalIs422WithCauses() throws Exception {
        Reply refused = post(WIDGETS, widget("a", "{'forbidden':true}"));
        assertThat(refused.code()).isEqualTo(422);
        assertThat(refused.body().get("reason").asText()).isEqualTo("Invalid");
        assertThat(refused.body().get("message").asText()).isEqualTo("Widget \"a\" is invalid: spec.forbidden: must not be set");
        assertThat(refused.body().get("details")).isEqualTo(JSON.readTree(json("{'name':'a','group':'test.berth.dev','kind':'widgets',"
                + "'causes':[{'reason':'FieldValueInvalid','message':'must not be set','field':'spec.forbidden'}]}")));
        assertNothingStored(0);
    }
}
