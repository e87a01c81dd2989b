package dev.berth.manager.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What real clients rely on and Berth got wrong (issue 13): nulls in a merge patch delete keys, a
 * JSON patch sees the resourceVersion it can test, kind and apiVersion default from the URL, and
 * /version carries every field of kube's version.Info.
 */
class PatchAndDefaultingHttpTest extends ApiServerFixture {
    private static final String JSON_PATCH = "application/json-patch+json";

    @Test
    void nullInAMergePatchDeletesTheKeyAtAnyDepth() throws Exception {
        post(GADGETS, gadget("a", "{'keep':'1','drop':'2'}"));

        Reply patched = call("PATCH", GADGETS + "/a", MERGE, json("{'metadata':{'labels':{'drop':null}},'spec':{'size':null}}"));

        assertThat(patched.code()).as(String.valueOf(patched.body())).isEqualTo(200);
        JsonNode stored = get(GADGETS + "/a").body();
        assertThat(stored.at("/metadata/labels").toString()).isEqualTo(json("{'keep':'1'}"));
        assertThat(stored.at("/spec").has("size")).isFalse();
    }

    @Test
    void aStrategicMergePatchOnACustomKindIs415AsKubeApiserverAnswersAndStoresNothing() throws Exception {
        post(GADGETS, gadget("a", "{'x':'y'}"));
        long revision = store.revision();

        Reply refused = call("PATCH", GADGETS + "/a", "application/strategic-merge-patch+json", json("{'metadata':{'labels':{'x':null}}}"));

        assertThat(refused.code()).isEqualTo(415);
        assertThat(refused.body().get("reason").asText()).isEqualTo("UnsupportedMediaType");
        assertThat(refused.body().get("message").asText()).isEqualTo("the body of the request was in an unknown format - accepted media types "
                + "include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml");
        assertNothingStored(revision);
        assertThat(get(GADGETS + "/a").body().at("/metadata/labels/x").asText()).isEqualTo("y");
    }

    @Test
    void aNonStringLabelInAMergePatchIsStillRefused() throws Exception {
        post(GADGETS, gadget("a", "{}"));
        long revision = store.revision();

        Reply refused = call("PATCH", GADGETS + "/a", MERGE, json("{'metadata':{'labels':{'x':5}}}"));

        assertThat(refused.code()).isEqualTo(422);
        assertThat(refused.body().get("message").asText()).contains("metadata.labels[x]");
        assertNothingStored(revision);
    }

    @Test
    void jsonPatchTestOnTheResourceVersionGuardsTheWrite() throws Exception {
        JsonNode created = post(GADGETS, gadget("a", "{}")).body();
        String version = created.at("/metadata/resourceVersion").asText();

        Reply applied = call("PATCH", GADGETS + "/a", JSON_PATCH, json("[{'op':'test','path':'/metadata/resourceVersion','value':'" + version
                + "'},{'op':'replace','path':'/spec/size','value':2}]"));
        assertThat(applied.code()).as(String.valueOf(applied.body())).isEqualTo(200);
        assertThat(get(GADGETS + "/a").body().at("/spec/size").asInt()).isEqualTo(2);

        long revision = store.revision();
        Reply stale = call("PATCH", GADGETS + "/a", JSON_PATCH, json("[{'op':'test','path':'/metadata/resourceVersion','value':'" + version
                + "'},{'op':'replace','path':'/spec/size','value':3}]"));
        assertThat(stale.code()).isEqualTo(422);
        assertThat(stale.body().get("message").asText()).contains("test failed");
        assertNothingStored(revision);
        assertThat(get(GADGETS + "/a").body().at("/spec/size").asInt()).isEqualTo(2);
    }

    @Test
    void jsonPatchTestSeesUidAndReplacingTheResourceVersionIsAPrecondition() throws Exception {
        JsonNode created = post(GADGETS, gadget("a", "{}")).body();
        assertThat(call("PATCH", GADGETS + "/a", JSON_PATCH, json("[{'op':'test','path':'/metadata/uid','value':'"
                + created.at("/metadata/uid").asText() + "'}]")).code()).isEqualTo(200);

        long revision = store.revision();
        Reply conflict = call("PATCH", GADGETS + "/a", JSON_PATCH, json("[{'op':'replace','path':'/metadata/resourceVersion','value':'1'},"
                + "{'op':'replace','path':'/spec/size','value':9}]"));
        assertThat(conflict.code()).isEqualTo(409);
        assertNothingStored(revision);
    }

    @Test
    void kindAndApiVersionMissingFromTheBodyAreTakenFromTheUrl() throws Exception {
        Reply created = post(GADGETS, "{\"metadata\":{\"name\":\"bare\"},\"spec\":{\"size\":1}}");
        assertThat(created.code()).as(String.valueOf(created.body())).isEqualTo(201);
        assertThat(created.body().get("kind").asText()).isEqualTo("Gadget");
        assertThat(created.body().get("apiVersion").asText()).isEqualTo("test.berth.dev/v1");

        JsonNode current = get(GADGETS + "/bare").body();
        String replacement = "{\"metadata\":{\"name\":\"bare\",\"resourceVersion\":\"" + current.at("/metadata/resourceVersion").asText()
                + "\"},\"spec\":{\"size\":2}}";
        assertThat(call("PUT", GADGETS + "/bare", JSON_TYPE, replacement).code()).isEqualTo(200);
    }

    @Test
    void kindOrApiVersionContradictingTheUrlIsStill400() throws Exception {
        long revision = store.revision();
        Reply wrongKind = post(GADGETS, json("{'kind':'Widget','metadata':{'name':'x'},'spec':{}}"));
        Reply wrongGroup = post(GADGETS, json("{'apiVersion':'other.example/v1','metadata':{'name':'x'},'spec':{}}"));

        assertThat(wrongKind.code()).isEqualTo(400);
        assertThat(wrongGroup.code()).isEqualTo(400);
        assertNothingStored(revision);
    }

    @Test
    void versionCarriesEveryFieldOfKubesVersionInfoAsStrings() throws Exception {
        JsonNode version = get("/version").body();

        for (String field : List.of("major", "minor", "gitVersion", "gitCommit", "gitTreeState", "buildDate", "goVersion", "compiler", "platform")) {
            assertThat(version.get(field)).as(field).isNotNull();
            assertThat(version.get(field).isTextual()).as(field + " is a string").isTrue();
            assertThat(version.get(field).asText()).as(field).isNotEmpty();
        }
        assertThat(version.get("gitVersion").asText()).isEqualTo("v1.32.0-berth");
        assertThat(version.get("platform").asText()).matches("[a-z0-9-]+/[a-z0-9_]+");
        assertThat(version.get("goVersion").asText()).startsWith("n/a (java ");
    }
}
