package dev.berth.manager.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** resourceVersion preconditions, generation, dryRun, JSON patch, server-side apply and Table printing over real HTTP. */
class ObjectSemanticsTest extends ApiServerFixture {
    private static final String APPLY = "application/apply-patch+yaml";

    @Test
    void aStaleResourceVersionOnReplaceOrPatchIs409AndChangesNothing() throws Exception {
        Reply created = post(WIDGETS, widget("w", "{'size':1}"));
        String version = created.body().at("/metadata/resourceVersion").asText();
        assertThat(call("PUT", WIDGETS + "/w", JSON_TYPE, widget("w", "{'size':2}")).code()).isEqualTo(200);
        long revision = store.revision();

        String stale = json("{'apiVersion':'test.berth.dev/v1','kind':'Widget','metadata':{'name':'w','resourceVersion':'" + version
                + "'},'spec':{'size':3}}");
        Reply conflict = call("PUT", WIDGETS + "/w", JSON_TYPE, stale);
        assertThat(conflict.code()).isEqualTo(409);
        assertThat(conflict.body().path("reason").asText()).isEqualTo("Conflict");
        assertThat(call("PATCH", WIDGETS + "/w", MERGE, json("{'metadata':{'resourceVersion':'" + version + "'},'spec':{'size':4}}")).code())
                .isEqualTo(409);
        assertNothingStored(revision);
    }

    @Test
    void generationGrowsOnSpecChangesOnly() throws Exception {
        post(WIDGETS, widget("g", "{'size':1}"));
        call("PATCH", WIDGETS + "/g", MERGE, json("{'metadata':{'labels':{'a':'b'}}}"));
        assertThat(get(WIDGETS + "/g").body().at("/metadata/generation").asLong()).isEqualTo(1);
        call("PATCH", WIDGETS + "/g", MERGE, json("{'spec':{'size':2}}"));
        assertThat(get(WIDGETS + "/g").body().at("/metadata/generation").asLong()).isEqualTo(2);
    }

    @Test
    void dryRunValidatesAndAnswersButStoresNothingAndTellsNoHook() throws Exception {
        post(WIDGETS, widget("d", "{'size':1}"));
        long revision = store.revision();
        int hookEvents = widgetHooks.events.size();

        Reply created = call("POST", WIDGETS + "?dryRun=All", JSON_TYPE, widget("new", "{'size':1}"));
        assertThat(created.code()).isEqualTo(201);
        assertThat(created.body().at("/metadata/uid").asText()).isNotEmpty();
        assertThat(call("PATCH", WIDGETS + "/d?dryRun=All", MERGE, json("{'spec':{'size':9}}")).body().at("/spec/size").asInt()).isEqualTo(9);
        assertThat(call("DELETE", WIDGETS + "/d?dryRun=All", null, (byte[]) null).code()).isEqualTo(200);
        assertThat(call("POST", WIDGETS + "?dryRun=All", JSON_TYPE, widget("bad", "{'forbidden':1}")).code()).isEqualTo(422);
        assertThat(call("POST", WIDGETS + "?dryRun=Some", JSON_TYPE, widget("x", "{}")).code()).isEqualTo(400);

        assertNothingStored(revision);
        assertThat(get(WIDGETS + "/d").body().at("/spec/size").asInt()).isEqualTo(1);
        assertThat(get(WIDGETS + "/new").code()).isEqualTo(404);
        assertThat(widgetHooks.events).hasSize(hookEvents);
    }

    @Test
    void jsonPatchAppliesInOrderAndAFailedTestChangesNothing() throws Exception {
        post(WIDGETS, widget("j", "{'size':1,'tags':['a']}"));
        String ops = json("[{'op':'test','path':'/spec/size','value':1},{'op':'add','path':'/spec/tags/-','value':'b'},"
                + "{'op':'replace','path':'/spec/size','value':2},{'op':'move','from':'/spec/tags','path':'/spec/labels'}]");
        Reply patched = call("PATCH", WIDGETS + "/j", "application/json-patch+json", ops);
        assertThat(patched.code()).isEqualTo(200);
        assertThat(patched.body().at("/spec/size").asInt()).isEqualTo(2);
        assertThat(patched.body().at("/spec/labels").toString()).isEqualTo("[\"a\",\"b\"]");

        long revision = store.revision();
        Reply failed = call("PATCH", WIDGETS + "/j", "application/json-patch+json",
                json("[{'op':'replace','path':'/spec/size','value':5},{'op':'test','path':'/spec/size','value':1}]"));
        assertThat(failed.code()).isEqualTo(422);
        assertThat(failed.body().path("message").asText()).contains("operation 1", "test failed");
        assertThat(call("PATCH", WIDGETS + "/j", "application/json-patch+json", json("[{'op':'remove','path':'/spec/nothing'}]")).code())
                .isEqualTo(422);
        assertNothingStored(revision);
    }

    @Test
    void serverSideApplyCreatesRecordsOwnersAndConflictsUnlessForced() throws Exception {
        String yaml = "apiVersion: test.berth.dev/v1\nkind: Widget\nmetadata:\n  name: s\nspec:\n  size: 1\n  color: red\n";
        Reply created = call("PATCH", WIDGETS + "/s?fieldManager=alice", APPLY, yaml);
        assertThat(created.code()).isEqualTo(201);
        assertThat(created.body().at("/metadata/managedFields/0/manager").asText()).isEqualTo("alice");
        assertThat(created.body().at("/metadata/managedFields/0/fieldsV1/f:spec/f:size").isObject()).isTrue();

        Reply bob = call("PATCH", WIDGETS + "/s?fieldManager=bob", APPLY, yaml.replace("size: 1", "size: 2"));
        assertThat(bob.code()).isEqualTo(409);
        assertThat(bob.body().at("/details/causes/0/field").asText()).isEqualTo(".spec.size");
        assertThat(bob.body().path("message").asText()).contains("conflict with \"alice\"");

        Reply same = call("PATCH", WIDGETS + "/s?fieldManager=bob", APPLY, yaml);
        assertThat(same.code()).as("applying the same value shares the field").isEqualTo(200);

        Reply forced = call("PATCH", WIDGETS + "/s?fieldManager=bob&force=true", APPLY, yaml.replace("size: 1", "size: 3"));
        assertThat(forced.code()).isEqualTo(200);
        assertThat(forced.body().at("/spec/size").asInt()).isEqualTo(3);

        Reply dropped = call("PATCH", WIDGETS + "/s?fieldManager=alice", APPLY,
                "apiVersion: test.berth.dev/v1\nkind: Widget\nmetadata:\n  name: s\nspec:\n  size: 3\n");
        assertThat(dropped.code()).isEqualTo(200);
        assertThat(dropped.body().at("/spec/color").isMissingNode()).as("alice stopped applying color and owned it alone... but bob shares it")
                .isFalse();
        assertThat(call("PATCH", WIDGETS + "/s", APPLY, yaml).code()).as("apply needs a field manager").isEqualTo(400);
    }

    @Test
    void listsFilterByFieldSelectorAndPrintAsTables() throws Exception {
        post(WIDGETS, widget("one", "{}"));
        post(WIDGETS, widget("two", "{}"));
        assertThat(names(get(WIDGETS + "?fieldSelector=metadata.name%3Dtwo"))).containsExactly("two");
        assertThat(names(get(WIDGETS + "?fieldSelector=metadata.name!%3Dtwo"))).containsExactly("one");

        java.net.http.HttpResponse<String> table = client.exchange("GET", WIDGETS,
                java.util.Map.of("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io,application/json"),
                java.net.http.HttpRequest.BodyPublishers.noBody());
        var body = JSON.readTree(table.body());
        assertThat(body.path("kind").asText()).isEqualTo("Table");
        assertThat(body.at("/columnDefinitions/0/name").asText()).isEqualTo("Name");
        assertThat(body.at("/rows/1/cells/0").asText()).isEqualTo("two");
        assertThat(body.at("/rows/0/object/kind").asText()).isEqualTo("PartialObjectMetadata");
    }

    @Test
    void discoveryListsResourcesWithVerbsAndShortNames() throws Exception {
        Reply resources = get("/apis/test.berth.dev/v1");
        assertThat(resources.body().path("kind").asText()).isEqualTo("APIResourceList");
        assertThat(resources.body().path("resources").findValuesAsText("name")).contains("widgets", "gadgets", "gadgets/status");
        for (var resource : resources.body().path("resources")) {
            if (resource.path("name").asText().equals("widgets")) {
                assertThat(resource.path("shortNames").toString()).isEqualTo("[\"wd\"]");
                assertThat(resource.path("verbs").toString()).contains("watch", "patch");
            }
        }
        assertThat(get("/apis").body().at("/groups/0/preferredVersion/version").asText()).isEqualTo("v1");
        assertThat(get("/apis/nothing.example/v1").code()).isEqualTo(404);
        assertThat(get("/openapi/v2").body().path("swagger").asText()).isEqualTo("2.0");
        assertThat(get("/openapi/v3/apis/test.berth.dev/v1").body().toString()).contains("fieldValidation", "x-kubernetes-group-version-kind");
    }
}
