package dev.berth.manager.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Conversion between kueue.x-k8s.io/v1beta1 and v1beta2 is lossless both ways. Each case is a pair of
 * files (objects/versions/NAME.v1beta1.yaml and .v1beta2.yaml) holding the same object in both
 * versions, with every field that differs between them, status included.
 */
class ApiVersionRoundTripTest {
    private static final String[] CASES = {"clusterqueue", "localqueue", "cohort", "workload-workloadpriorityclass",
            "workload-podpriorityclass", "workload-otherpriorityref", "multikueuecluster-kubeconfig",
            "multikueuecluster-profile", "multikueueconfig", "admissioncheck", "resourceflavor", "workloadpriorityclass"};

    static Stream<String> cases() {
        return Stream.of(CASES);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void v1beta2ConvertsToKueuesV1beta1Shape(String name) {
        ObjectNode object = v1beta2(name);

        ApiVersionConverter.toV1beta1(object);

        assertThat(object).isEqualTo(v1beta1(name));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void v1beta1ConvertsToV1beta2Shape(String name) {
        ObjectNode object = v1beta1(name);

        ApiVersionConverter.toV1beta2(object);

        assertThat(object).isEqualTo(v1beta2(name));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void roundTripsAreIdentities(String name) {
        assertThat(viaV1beta1(v1beta2(name))).as("v1beta2 -> v1beta1 -> v1beta2").isEqualTo(v1beta2(name));
        assertThat(viaV1beta2(v1beta1(name))).as("v1beta1 -> v1beta2 -> v1beta1").isEqualTo(v1beta1(name));
    }

    /**
     * Property: any part of a representative object (random fields removed, metadata kept) survives
     * v1beta2 -> v1beta1 -> v1beta2, and its v1beta1 form survives v1beta1 -> v1beta2 -> v1beta1.
     */
    @Test
    void everyPartOfEveryKindRoundTrips() {
        Random random = new Random(13);
        for (String name : CASES) {
            ObjectNode example = v1beta2(name);
            for (int trial = 0; trial < 200; trial++) {
                ObjectNode stored = pruned(example.deepCopy(), random);
                if (!viaV1beta1(stored).equals(stored)) assertThat(viaV1beta1(stored)).as(name).isEqualTo(stored);
                ObjectNode read = stored.deepCopy();
                ApiVersionConverter.toV1beta1(read);
                if (!viaV1beta2(read).equals(read)) assertThat(viaV1beta2(read)).as(name).isEqualTo(read);
            }
        }
    }

    @Test
    void theCarryingAnnotationCannotSetOtherFields() {
        ObjectNode object = v1beta1("multikueueconfig");
        object.with("metadata").with("annotations").put("conversion.berth.dev/v1beta2-fields",
                "{\"/metadata/name\":\"other\",\"/spec/clusters\":[\"evil\"],\"/spec/quotaManagement\":\"Mirror\"}");

        ApiVersionConverter.toV1beta2(object);

        assertThat(object).isEqualTo(v1beta2("multikueueconfig"));
    }

    @Test
    void aStatusWrittenThroughV1beta1IsStoredAsV1beta2() {
        ObjectNode written = v1beta1("localqueue");

        ObjectNode status = ApiVersionConverter.statusToV1beta2(written);

        assertThat(status).isEqualTo(v1beta2("localqueue").get("status"));
    }

    private static ObjectNode viaV1beta1(ObjectNode v1beta2) {
        ObjectNode object = v1beta2.deepCopy();
        ApiVersionConverter.toV1beta1(object);
        ApiVersionConverter.toV1beta2(object);
        return object;
    }

    private static ObjectNode viaV1beta2(ObjectNode v1beta1) {
        ObjectNode object = v1beta1.deepCopy();
        ApiVersionConverter.toV1beta2(object);
        ApiVersionConverter.toV1beta1(object);
        return object;
    }

    /** The object with each field below the top level (metadata aside) removed with probability 1/4. */
    private static ObjectNode pruned(ObjectNode object, Random random) {
        for (String field : List.of("spec", "status", "value", "description")) {
            if (object.get(field) instanceof ObjectNode || object.get(field) instanceof ArrayNode) prune(object.get(field), random);
            else if (object.has(field) && random.nextInt(4) == 0) object.remove(field);
        }
        return object;
    }

    private static void prune(JsonNode node, Random random) {
        if (node instanceof ObjectNode object) {
            List<String> fields = new ArrayList<>();
            object.fieldNames().forEachRemaining(fields::add);
            for (String field : fields) {
                if (random.nextInt(4) == 0) object.remove(field);
                else prune(object.get(field), random);
            }
        } else if (node instanceof ArrayNode array) {
            for (JsonNode element : array) prune(element, random);
        }
    }

    private static ObjectNode v1beta1(String name) {
        return Yaml.resource("versions/" + name + ".v1beta1.yaml");
    }

    private static ObjectNode v1beta2(String name) {
        return Yaml.resource("versions/" + name + ".v1beta2.yaml");
    }
}
