package dev.berth.manager.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Refused requests: each answers a metav1 Status with the right code and reason, and stores nothing. */
class ApiRefusalTest extends ApiServerFixture {
    List<Object> before;

    @BeforeEach
    void seed() throws Exception {
        post(WIDGETS, widget("existing", "{'size':1}"));
        post(GADGETS, gadget("g", "{'team':'red'}"));
        before = storeState();
    }

    private Reply refused(Reply reply, int code, String reason) {
        assertThat(reply.code()).as("HTTP status of %s", reply.body()).isEqualTo(code);
        assertThat(reply.body().get("kind").asText()).isEqualTo("Status");
        assertThat(reply.body().get("apiVersion").asText()).isEqualTo("v1");
        assertThat(reply.body().get("status").asText()).isEqualTo("Failure");
        assertThat(reply.body().get("reason").asText()).isEqualTo(reason);
        assertThat(reply.body().get("code").asInt()).isEqualTo(code);
        assertThat(storeState()).isEqualTo(before);
        return reply;
    }

    private String message(Reply reply) {
        return reply.body().get("message").asText();
    }

    @Test
    void malformedYamlIs400WithThePosition() throws Exception {
        Reply reply = refused(call("POST", WIDGETS, YAML, "apiVersion: test.berth.dev/v1\nkind: Widget\nmetadata: {name: [x\n"), 400, "BadRequest");
        assertThat(message(reply)).startsWith("yaml: line ");
    }

    @Test
    void duplicateKeysAre400NamingTheKey() throws Exception {
        Reply json = refused(call("POST", WIDGETS, JSON_TYPE, json("{'apiVersion':'test.berth.dev/v1','kind':'Widget','kind':'Widget'}")), 400, "BadRequest");
        assertThat(message(json)).contains("kind").contains("line 1");
        Reply yaml = refused(call("POST", WIDGETS, YAML, "apiVersion: test.berth.dev/v1\nkind: Widget\nmetadata:\n  name: a\n  name: b\n"), 400, "BadRequest");
        assertThat(message(yaml)).isEqualTo("yaml: line 5, column 3: duplicate key \"name\"");
    }

    @Test
    void anAliasBombIs400Quickly() throws Exception {
        StringBuilder bomb = new StringBuilder("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
        for (char level = 'b'; level <= 'i'; level++) {
            char previous = (char) (level - 1);
            bomb.append(level).append(": &").append(level).append(" [");
            for (int i = 0; i < 9; i++) bomb.append(i == 0 ? "" : ",").append('*').append(previous);
            bomb.append("]\n");
        }
        long started = System.nanoTime();
        Reply reply = refused(call("POST", WIDGETS, YAML, bomb.toString()), 400, "BadRequest");
        assertThat((System.nanoTime() - started) / 1_000_000).isLessThan(2_000);
        assertThat(message(reply)).containsIgnoringCase("alias");
    }

    @Test
    void deepNestingIs400() throws Exception {
        String deep = "{\"a\":".repeat(500) + "1" + "}".repeat(500);
        Reply json = refused(call("POST", WIDGETS, JSON_TYPE, deep), 400, "BadRequest");
        assertThat(message(json)).containsIgnoringCase("nesting");
        refused(call("POST", WIDGETS, YAML, "[".repeat(500) + "]".repeat(500)), 400, "BadRequest");
    }

    @Test
    void invalidUtf8Is400() throws Exception {
        byte[] body = widget("caf\u00e9", "{}").getBytes(StandardCharsets.UTF_8);
        byte[] broken = new String(body, StandardCharsets.UTF_8).replace("\u00e9", "XX").getBytes(StandardCharsets.UTF_8);
        int at = new String(broken, StandardCharsets.UTF_8).indexOf("XX");
        broken[at] = (byte) 0xC3;
        broken[at + 1] = (byte) 0x28;
        Reply reply = refused(call("POST", WIDGETS, JSON_TYPE, broken), 400, "BadRequest");
        assertThat(message(reply)).contains("UTF-8").contains("offset " + at);
    }

    @Test
    void aTopLevelNonObjectIs400() throws Exception {
        assertThat(message(refused(call("POST", WIDGETS, JSON_TYPE, "[1,2]"), 400, "BadRequest"))).contains("must be an object");
        refused(call("POST", WIDGETS, YAML, "just a string"), 400, "BadRequest");
    }

    @Test
    void kindAndPathMustAgree() throws Exception {
        Reply unknown = refused(call("POST", WIDGETS, JSON_TYPE, json("{'apiVersion':'test.berth.dev/v1','kind':'Sprocket','metadata':{'name':'s'}}")), 400, "BadRequest");
        assertThat(message(unknown)).contains("kind \"Sprocket\"");
        refused(call("POST", WIDGETS, JSON_TYPE, gadget("x", "{}")), 400, "BadRequest");
        refused(call("POST", WIDGETS, JSON_TYPE, widget("x", "{}").replace("test.berth.dev/v1", "other.dev/v1")), 400, "BadRequest");
        refused(call("POST", GADGETS, JSON_TYPE, json("{'apiVersion':'test.berth.dev/v1','kind':'Gadget','metadata':{'name':'x','namespace':'ns2'}}")), 400, "BadRequest");
        refused(call("PUT", WIDGETS + "/existing", JSON_TYPE, widget("other", "{}")), 400, "BadRequest");
    }

    @Test
    void aMissingNameIs422() throws Exception {
        Reply reply = refused(call("POST", WIDGETS, JSON_TYPE, json("{'apiVersion':'test.berth.dev/v1','kind':'Widget','metadata':{}}")), 422, "Invalid");
        assertThat(reply.body().at("/details/causes/0/field").asText()).isEqualTo("metadata.name");
    }

    @Test
    void unknownPathsAndObjectsAre404() throws Exception {
        refused(get("/apis/test.berth.dev/v1/sprockets"), 404, "NotFound");
        refused(get("/apis/test.berth.dev/v1/namespaces/ns1/widgets"), 404, "NotFound");
        refused(get("/apis/test.berth.dev/v1/gadgets/g"), 404, "NotFound");
        refused(get("/nothing/here"), 404, "NotFound");
        refused(call("PUT", WIDGETS + "/missing", JSON_TYPE, widget("missing", "{}")), 404, "NotFound");
        refused(call("PATCH", WIDGETS + "/missing", MERGE, "{}"), 404, "NotFound");
    }

    @Test
    void unsupportedMethodsAre405() throws Exception {
        refused(call("DELETE", WIDGETS, null, (byte[]) null), 405, "MethodNotAllowed");
        refused(call("POST", WIDGETS + "/existing", JSON_TYPE, widget("existing", "{}")), 405, "MethodNotAllowed");
        refused(call("POST", "/apis/test.berth.dev/v1/gadgets", JSON_TYPE, gadget("x", "{}")), 405, "MethodNotAllowed");
    }

    @Test
    void creatingTwiceIs409AlreadyExists() throws Exception {
        Reply reply = refused(post(WIDGETS, widget("existing", "{'size':2}")), 409, "AlreadyExists");
        assertThat(message(reply)).isEqualTo("widgets.test.berth.dev \"existing\" already exists");
    }

    @Test
    void aBodyOverTheLimitIs413() throws Exception {
        String big = widget("big", "{'blob':'" + "x".repeat(70 * 1024) + "'}");
        refused(call("POST", WIDGETS, JSON_TYPE, big), 413, "RequestEntityTooLarge");
    }

    @Test
    void anUnknownMediaTypeIs415() throws Exception {
        refused(call("POST", WIDGETS, "application/xml", "<widget/>"), 415, "UnsupportedMediaType");
        refused(call("PATCH", WIDGETS + "/existing", "application/vnd.kubernetes.protobuf", "x"), 415, "UnsupportedMediaType");
    }

    @Test
    void anAdmissionRefusalOnReplaceIs422() throws Exception {
        Reply reply = refused(call("PUT", WIDGETS + "/existing", JSON_TYPE, widget("existing", "{'forbidden':1}")), 422, "Invalid");
        assertThat(reply.body().at("/details/causes/0/reason").asText()).isEqualTo("FieldValueInvalid");
    }

    @Test
    void anUnexpectedFailureIs500WithoutInternals() throws Exception {
        Reply reply = refused(post(WIDGETS, widget("boom", "{'explode':true}")), 500, "InternalError");
        assertThat(message(reply)).doesNotContain("secret");
        assertThat(get("/healthz").code()).isEqualTo(200);
    }
}
