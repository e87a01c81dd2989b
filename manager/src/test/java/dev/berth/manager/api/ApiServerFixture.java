package dev.berth.manager.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.security.edge.ApiSecurity;
import dev.berth.manager.store.MemoryObjectStore;
import dev.berth.manager.testing.ManagerClient;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A real ApiServer on a loopback port over an in-memory store and the test kinds, with an HTTP client.
 * Not the ManagerHarness: the API server alone, serving test kinds (Widget, Gadget) that a BerthManager does not register.
 */
abstract class ApiServerFixture {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String WIDGETS = "/apis/test.berth.dev/v1/widgets";
    static final String GADGETS = "/apis/test.berth.dev/v1/namespaces/ns1/gadgets";
    static final String YAML = "application/yaml";
    static final String JSON_TYPE = "application/json";
    static final String MERGE = "application/merge-patch+json";

    Vertx vertx;
    ExecutorService state;
    MemoryObjectStore store;
    TestKinds.WidgetHooks widgetHooks;
    HttpServer server;
    ManagerClient client;

    record Reply(int code, JsonNode body, java.net.http.HttpHeaders headers) {}

    @BeforeEach
    void start() throws Exception {
        vertx = Vertx.vertx();
        state = Executors.newSingleThreadExecutor(r -> new Thread(r, "state"));
        store = new MemoryObjectStore();
        widgetHooks = new TestKinds.WidgetHooks();
        ObjectService service = new ObjectService(store, TestKinds.registry(widgetHooks));
        server = new ApiServer(service, state, 64 * 1024, ApiSecurity.limitsOnly()).start(vertx, "127.0.0.1", 0)
                .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        client = new ManagerClient("http://127.0.0.1:" + server.actualPort(), Duration.ofSeconds(5), Duration.ofSeconds(10));
    }

    @AfterEach
    void stop() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        state.shutdownNow();
        store.close();
    }

    Reply call(String method, String path, String contentType, byte[] body) throws Exception {
        HttpResponse<byte[]> response = client.sendRaw(method, path,
                body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body), request -> {
                    if (contentType != null) request.header("Content-Type", contentType);
                }, HttpResponse.BodyHandlers.ofByteArray());
        JsonNode json = response.body().length == 0 ? null : parseOrText(response.body());
        return new Reply(response.statusCode(), json, response.headers());
    }

    private static JsonNode parseOrText(byte[] body) {
        try {
            return JSON.readTree(body);
        } catch (Exception e) {
            return JSON.getNodeFactory().textNode(new String(body, StandardCharsets.UTF_8));
        }
    }

    Reply call(String method, String path, String contentType, String body) throws Exception {
        return call(method, path, contentType, body == null ? null : body.getBytes(StandardCharsets.UTF_8));
    }

    Reply get(String path) throws Exception {
        return call("GET", path, null, (byte[]) null);
    }

    Reply post(String path, String json) throws Exception {
        return call("POST", path, JSON_TYPE, json(json));
    }

    static String json(String singleQuoted) {
        return singleQuoted.replace('\'', '"');
    }

    static String widget(String name, String spec) {
        return json("{'apiVersion':'test.berth.dev/v1','kind':'Widget','metadata':{'name':'" + name + "'},'spec':" + spec + "}");
    }

    static String gadget(String name, String labels) {
        return json("{'apiVersion':'test.berth.dev/v1','kind':'Gadget','metadata':{'name':'" + name + "','labels':" + labels + "},'spec':{'size':1}}");
    }

    List<String> names(Reply list) {
        return list.body().get("items").findValuesAsText("name");
    }

    /** Everything the store holds, with its revision: equal before and after a refused request. */
    List<Object> storeState() {
        return List.of(store.revision(), store.list(TestKinds.WIDGET.resource(), null), store.list(TestKinds.GADGET.resource(), null));
    }

    void assertNothingStored(long revision) {
        assertThat(store.revision()).isEqualTo(revision);
    }
}
