package dev.berth.manager.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.objects.InvalidObjectException;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * Protobuf bodies of built-in kinds decode to the JSON a JSON client sends: bodies captured from the real
 * kubectl against what the same command prints as JSON, and hand-built messages for the special types.
 */
class KubernetesProtobufTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @ParameterizedTest
    @ValueSource(strings = {"namespace", "secret", "job", "priorityclass", "rolebinding"})
    void kubectlsProtobufDecodesToWhatItPrintsAsJson(String kind) throws Exception {
        ObjectNode decoded = KubernetesProtobuf.decode(resource(kind + ".bin"));
        JsonNode printed = withoutNulls(JSON.readTree(resource(kind + ".json")));
        assertThat(decoded).isEqualTo(printed);
    }

    @Test
    void specialTypesTakeTheirJsonForms() throws Exception {
        byte[] metadata = concat(string(1, "p"), message(8, concat(varint(1, 1_700_000_000L), varint(2, 0))),
                message(11, concat(string(1, "team"), string(2, "a"))));
        byte[] port = concat(varint(1, 1), string(3, "http"));
        byte[] probe = message(1, message(2, concat(message(2, port), string(1, "/healthz"))));
        byte[] requests = message(2, concat(string(1, "cpu"), message(2, string(1, "500m"))));
        byte[] container = concat(string(1, "c"), string(2, "busybox"), message(8, requests), message(10, probe));
        byte[] emptyDir = message(2, message(2, new byte[0]));
        byte[] volume = concat(string(1, "scratch"), emptyDir);
        byte[] spec = concat(message(1, volume), message(2, container), varint(4, 0), varint(21, 0));
        ObjectNode pod = KubernetesProtobuf.decode(envelope("v1", "Pod", concat(message(1, metadata), message(2, spec))));
        assertThat(pod).isEqualTo(JSON.readTree("""
                {"apiVersion":"v1","kind":"Pod",
                 "metadata":{"name":"p","creationTimestamp":"2023-11-14T22:13:20Z","labels":{"team":"a"}},
                 "spec":{"volumes":[{"name":"scratch","emptyDir":{}}],
                  "containers":[{"name":"c","image":"busybox","resources":{"requests":{"cpu":"500m"}},
                    "livenessProbe":{"httpGet":{"path":"/healthz","port":"http"}}}],
                  "terminationGracePeriodSeconds":0,"automountServiceAccountToken":false}}"""));
    }

    @Test
    void aTruncatedBodyIsRefusedNamingWhere() throws Exception {
        byte[] job = resource("job.bin");
        assertThatThrownBy(() -> KubernetesProtobuf.decode(Arrays.copyOf(job, job.length - 5)))
                .isInstanceOf(InvalidObjectException.class).hasMessageContaining("malformed");
        byte[] metadata = message(1, new byte[] {10, 50, 'x'});
        assertThatThrownBy(() -> KubernetesProtobuf.decode(envelope("v1", "Namespace", metadata)))
                .isInstanceOf(InvalidObjectException.class).hasMessageContaining("metadata.name").hasMessageContaining("runs past the end");
    }

    @Test
    void aWrongWireTypeIsRefusedNamingTheField() {
        byte[] metadata = message(1, varint(1, 7));
        assertThatThrownBy(() -> KubernetesProtobuf.decode(envelope("v1", "Namespace", metadata)))
                .isInstanceOf(InvalidObjectException.class).hasMessageContaining("metadata.name").hasMessageContaining("wire type 0");
    }

    @Test
    void aBodyWithoutTheEnvelopePrefixIsRefused() {
        assertThatThrownBy(() -> KubernetesProtobuf.decode("{\"kind\":\"Namespace\"}".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(InvalidObjectException.class).hasMessageContaining("envelope prefix");
    }

    @Test
    void invalidUtf8InAStringIsRefused() {
        byte[] metadata = message(1, concat(new byte[] {10, 2}, new byte[] {(byte) 0xc3, (byte) 0x28}));
        assertThatThrownBy(() -> KubernetesProtobuf.decode(envelope("v1", "Namespace", metadata)))
                .isInstanceOf(InvalidObjectException.class).hasMessageContaining("not valid UTF-8");
    }

    @Test
    void aCustomResourceInProtobufIsUnsupportedMediaType() {
        assertThatThrownBy(() -> KubernetesProtobuf.decode(envelope("kueue.x-k8s.io/v1beta2", "ClusterQueue", new byte[0])))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.code()).isEqualTo(415));
    }

    @Test
    void aMessageThatIsNoKindIsUnsupportedMediaType() {
        assertThatThrownBy(() -> KubernetesProtobuf.decode(envelope("v1", "PodSpec", new byte[0])))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.code()).isEqualTo(415));
    }

    // the wire format, built by hand

    static byte[] envelope(String apiVersion, String kind, byte[] raw) {
        return concat(new byte[] {'k', '8', 's', 0}, message(1, concat(string(1, apiVersion), string(2, kind))), message(2, raw));
    }

    static byte[] string(int number, String value) {
        return message(number, value.getBytes(StandardCharsets.UTF_8));
    }

    static byte[] message(int number, byte[] bytes) {
        return concat(varintBytes((long) number << 3 | 2), varintBytes(bytes.length), bytes);
    }

    static byte[] varint(int number, long value) {
        return concat(varintBytes((long) number << 3), varintBytes(value));
    }

    private static byte[] varintBytes(long value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        while ((value & ~0x7fL) != 0) {
            out.write((int) (value & 0x7f) | 0x80);
            value >>>= 7;
        }
        out.write((int) value);
        return out.toByteArray();
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) out.writeBytes(part);
        return out.toByteArray();
    }

    static byte[] resource(String name) throws Exception {
        try (InputStream in = KubernetesProtobufTest.class.getResourceAsStream("/protobuf/" + name)) {
            return in.readAllBytes();
        }
    }

    private static JsonNode withoutNulls(JsonNode node) {
        if (node instanceof ObjectNode object) {
            for (Iterator<Map.Entry<String, JsonNode>> fields = object.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> field = fields.next();
                if (field.getValue().isNull()) fields.remove();
                else withoutNulls(field.getValue());
            }
        } else if (node.isArray()) {
            node.forEach(KubernetesProtobufTest::withoutNulls);
        }
        return node;
    }
}
