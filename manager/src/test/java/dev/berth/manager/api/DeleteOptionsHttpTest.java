package dev.berth.manager.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/**
 * DELETE with kube's DeleteOptions over real HTTP (issue 13): preconditions, dry run from the body
 * or the query, and ownerReference garbage collection with each propagation policy.
 */
class DeleteOptionsHttpTest extends ApiServerFixture {
    private static final String OPTIONS = "{'kind':'DeleteOptions','apiVersion':'v1'%s}";

    private Reply delete(String path, String options) throws Exception {
        return call("DELETE", path, JSON_TYPE, json(OPTIONS.formatted(options)));
    }

    private JsonNode created(String path, String body) throws Exception {
        Reply reply = post(path, body);
        assertThat(reply.code()).as(reply.body().toString()).isEqualTo(201);
        return reply.body();
    }

    /** A Gadget in ns1 whose ownerReferences name each of the widgets. */
    private void ownedGadget(String name, JsonNode... owners) throws Exception {
        StringBuilder references = new StringBuilder();
        for (JsonNode owner : owners) {
            if (references.length() > 0) references.append(',');
            references.append("{'apiVersion':'test.berth.dev/v1','kind':'Widget','name':'").append(owner.at("/metadata/name").asText())
                    .append("','uid':'").append(owner.at("/metadata/uid").asText()).append("','blockOwnerDeletion':true}");
        }
        created(GADGETS, "{'apiVersion':'test.berth.dev/v1','kind':'Gadget','metadata':{'name':'" + name
                + "','ownerReferences':[" + references + "]},'spec':{'size':1}}");
    }

    @Test
    void uidPreconditionThatDoesNotHoldIs409AndDeletesNothing() throws Exception {
        created(WIDGETS, widget("a", "{}"));
        long revision = store.revision();

        Reply refused = delete(WIDGETS + "/a", ",'preconditions':{'uid':'not-the-uid'}");

        assertThat(refused.code()).isEqualTo(409);
        assertThat(refused.body().get("reason").asText()).isEqualTo("Conflict");
        assertThat(refused.body().get("message").asText()).contains("Operation cannot be fulfilled on widgets.test.berth.dev \"a\"",
                "Precondition failed: UID in precondition: not-the-uid, UID in object meta: ");
        assertNothingStored(revision);
        assertThat(get(WIDGETS + "/a").code()).isEqualTo(200);
    }

    @Test
    void resourceVersionPreconditionThatDoesNotHoldIs409AndOneThatHoldsDeletes() throws Exception {
        JsonNode widget = created(WIDGETS, widget("a", "{}"));
        long revision = store.revision();

        Reply refused = delete(WIDGETS + "/a", ",'preconditions':{'resourceVersion':'999'}");
        assertThat(refused.code()).isEqualTo(409);
        assertThat(refused.body().get("message").asText()).contains("Precondition failed: ResourceVersion in precondition: 999");
        assertNothingStored(revision);

        Reply deleted = delete(WIDGETS + "/a", ",'preconditions':{'uid':'" + widget.at("/metadata/uid").asText()
                + "','resourceVersion':'" + widget.at("/metadata/resourceVersion").asText() + "'}");
        assertThat(deleted.code()).isEqualTo(200);
        assertThat(get(WIDGETS + "/a").code()).isEqualTo(404);
    }

    @Test
    void dryRunInTheBodyOrTheQueryDeletesNothing() throws Exception {
        JsonNode owner = created(WIDGETS, widget("a", "{}"));
        ownedGadget("g", owner);
        long revision = store.revision();

        Reply fromBody = delete(WIDGETS + "/a", ",'dryRun':['All'],'propagationPolicy':'Foreground'");
        assertThat(fromBody.code()).isEqualTo(200);
        assertThat(fromBody.body().at("/metadata/name").asText()).isEqualTo("a");
        Reply fromQuery = call("DELETE", WIDGETS + "/a?dryRun=All", null, (byte[]) null);
        assertThat(fromQuery.code()).isEqualTo(200);
        Reply queryAndBody = call("DELETE", WIDGETS + "/a?dryRun=All", JSON_TYPE, json(OPTIONS.formatted(",'propagationPolicy':'Background'")));
        assertThat(queryAndBody.code()).isEqualTo(200);

        assertNothingStored(revision);
        assertThat(get(WIDGETS + "/a").code()).isEqualTo(200);
        assertThat(get(GADGETS + "/g").code()).isEqualTo(200);
        assertThat(widgetHooks.events).noneMatch(event -> event.startsWith("deleted"));
    }

    @Test
    void backgroundDeletesTheOwnerThenItsDependents() throws Exception {
        JsonNode owner = created(WIDGETS, widget("a", "{}"));
        ownedGadget("g", owner);

        assertThat(delete(WIDGETS + "/a", ",'propagationPolicy':'Background'").code()).isEqualTo(200);

        assertThat(get(WIDGETS + "/a").code()).isEqualTo(404);
        assertThat(get(GADGETS + "/g").code()).isEqualTo(404);
    }

    @Test
    void noPolicyAtAllCollectsDependentsAsBackgroundDoes() throws Exception {
        JsonNode owner = created(WIDGETS, widget("a", "{}"));
        ownedGadget("g", owner);

        assertThat(call("DELETE", WIDGETS + "/a", null, (byte[]) null).code()).isEqualTo(200);

        assertThat(get(GADGETS + "/g").code()).isEqualTo(404);
    }

    @Test
    void aDependentWithAnotherLiveOwnerOnlyLosesTheReference() throws Exception {
        JsonNode a = created(WIDGETS, widget("a", "{}"));
        JsonNode b = created(WIDGETS, widget("b", "{}"));
        ownedGadget("g", a, b);

        assertThat(delete(WIDGETS + "/a", "").code()).isEqualTo(200);

        JsonNode references = get(GADGETS + "/g").body().at("/metadata/ownerReferences");
        assertThat(references.findValuesAsText("name")).containsExactly("b");
    }

    @Test
    void orphanFromTheBodyOrTheQueryLeavesDependentsWithoutTheReference() throws Exception {
        JsonNode a = created(WIDGETS, widget("a", "{}"));
        ownedGadget("g", a);
        JsonNode b = created(WIDGETS, widget("b", "{}"));
        ownedGadget("h", b);

        assertThat(delete(WIDGETS + "/a", ",'propagationPolicy':'Orphan'").code()).isEqualTo(200);
        assertThat(call("DELETE", WIDGETS + "/b?propagationPolicy=Orphan", null, (byte[]) null).code()).isEqualTo(200);

        assertThat(get(WIDGETS + "/a").code()).isEqualTo(404);
        for (String gadget : new String[] {"g", "h"}) {
            Reply kept = get(GADGETS + "/" + gadget);
            assertThat(kept.code()).isEqualTo(200);
            assertThat(kept.body().at("/metadata").has("ownerReferences")).isFalse();
        }
    }

    @Test
    void foregroundMarksTheOwnerThenDeletesDependentsThenTheOwner() throws Exception {
        JsonNode owner = created(WIDGETS, widget("a", "{}"));
        ownedGadget("g", owner);

        Reply answer = delete(WIDGETS + "/a", ",'propagationPolicy':'Foreground','gracePeriodSeconds':30");

        assertThat(answer.code()).isEqualTo(200);
        assertThat(answer.body().at("/metadata/deletionTimestamp").asText()).isNotEmpty();
        assertThat(answer.body().at("/metadata/finalizers").toString()).contains("foregroundDeletion");
        assertThat(get(WIDGETS + "/a").code()).isEqualTo(404);
        assertThat(get(GADGETS + "/g").code()).isEqualTo(404);
    }

    @Test
    void aChainOfDependentsIsCollectedToItsEnd() throws Exception {
        JsonNode owner = created(WIDGETS, widget("a", "{}"));
        ownedGadget("g0", owner);
        for (int i = 1; i < 30; i++) {
            JsonNode previous = get(GADGETS + "/g" + (i - 1)).body();
            created(GADGETS, "{'apiVersion':'test.berth.dev/v1','kind':'Gadget','metadata':{'name':'g" + i
                    + "','ownerReferences':[{'apiVersion':'test.berth.dev/v1','kind':'Gadget','name':'g" + (i - 1)
                    + "','uid':'" + previous.at("/metadata/uid").asText() + "'}]},'spec':{'size':1}}");
        }

        assertThat(delete(WIDGETS + "/a", ",'propagationPolicy':'Foreground'").code()).isEqualTo(200);

        assertThat(names(get(GADGETS))).isEmpty();
    }

    @Test
    void badOptionsAre400AndDeleteNothing() throws Exception {
        created(WIDGETS, widget("a", "{}"));
        long revision = store.revision();

        assertThat(delete(WIDGETS + "/a", ",'propagationPolicy':'Sideways'").body().get("message").asText())
                .contains("propagationPolicy: Unsupported value: \"Sideways\"");
        assertThat(delete(WIDGETS + "/a", ",'dryRun':['Some']").code()).isEqualTo(400);
        assertThat(delete(WIDGETS + "/a", ",'propagationPolicy':'Orphan','orphanDependents':false").code()).isEqualTo(400);
        assertThat(delete(WIDGETS + "/a", ",'gracePeriodSeconds':'soon'").code()).isEqualTo(400);
        assertThat(call("DELETE", WIDGETS + "/a", JSON_TYPE, json("{'kind':'Widget'}")).code()).isEqualTo(400);

        assertNothingStored(revision);
    }
}
