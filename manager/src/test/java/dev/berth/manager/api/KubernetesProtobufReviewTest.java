package dev.berth.manager.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.manager.objects.InvalidObjectException;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The self reviews kubectl posts as protobuf decode to the JSON a JSON client sends, and any other bytes
 * are a 400, never another failure.
 */
class KubernetesProtobufReviewTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** kubectl auth can-i get /metrics */
    static final String NON_RESOURCE = "6b3873000a320a17617574686f72697a6174696f6e2e6b38732e696f2f7631121753656c665375626a656374416363657373526576696577122f0a100a0012001a0022002a003200380042001211120f0a082f6d65747269637312036765741a08080012001a0020001a002200";
    /** kubectl auth can-i --list -n team-a */
    static final String RULES = "6b3873000a310a17617574686f72697a6174696f6e2e6b38732e696f2f7631121653656c665375626a65637452756c657352657669657712220a100a0012001a0022002a0032003800420012080a067465616d2d611a04180022001a002200";

    @Test
    void kubectlsBodiesDecodeToTheirJson() throws Exception {
        assertThat(KubernetesProtobuf.decodeReview(HexFormat.of().parseHex(NON_RESOURCE))).isEqualTo(JSON.readTree("""
                {"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectAccessReview","metadata":{},
                 "spec":{"nonResourceAttributes":{"path":"/metrics","verb":"get"}},"status":{"allowed":false}}"""));
        assertThat(KubernetesProtobuf.decodeReview(HexFormat.of().parseHex(RULES))).isEqualTo(JSON.readTree("""
                {"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectRulesReview","metadata":{},
                 "spec":{"namespace":"team-a"},"status":{"incomplete":false}}"""));
    }

    @Test
    void invalidUtf8InAStringIsABadRequest() {
        byte[] body = HexFormat.of().parseHex(RULES);
        body[body.length - 14] = (byte) 0xff; // a byte of "team-a"
        assertThatThrownBy(() -> KubernetesProtobuf.decodeReview(body))
                .isInstanceOf(InvalidObjectException.class).hasMessageContaining("UTF-8");
    }

    @Test
    void aBodyOfAnotherKindIsABadRequest() throws Exception {
        byte[] namespace = KubernetesProtobufTest.resource("namespace.bin");
        assertThatThrownBy(() -> KubernetesProtobuf.decodeReview(namespace))
                .isInstanceOf(InvalidObjectException.class).hasMessageContaining("not a self review")
                .satisfies(e -> assertThat(((InvalidObjectException) e).httpStatus()).isEqualTo(400));
    }

    @Test
    void randomMutationsAreReadOrRefusedWith400() {
        Random random = new Random(12);
        for (String kubectl : new String[] {NON_RESOURCE, RULES}) {
            byte[] original = HexFormat.of().parseHex(kubectl);
            for (int i = 0; i < 10_000; i++) {
                byte[] body = original.clone();
                int flips = 1 + random.nextInt(4);
                for (int f = 0; f < flips; f++) body[4 + random.nextInt(body.length - 4)] = (byte) random.nextInt(256);
                byte[] cut = java.util.Arrays.copyOf(body, 4 + random.nextInt(body.length - 3));
                for (byte[] candidate : new byte[][] {body, cut}) {
                    try {
                        KubernetesProtobuf.decodeReview(candidate);
                    } catch (InvalidObjectException e) {
                        assertThat(e.httpStatus()).isEqualTo(400);
                    }
                }
            }
        }
    }
}
