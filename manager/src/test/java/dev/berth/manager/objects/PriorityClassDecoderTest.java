package dev.berth.manager.objects;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class PriorityClassDecoderTest {

    private static PriorityClassInfo workloadClass(String body) {
        return PriorityClassDecoder.decodeWorkloadPriorityClass(Yaml.parse(
                "apiVersion: kueue.x-k8s.io/v1beta2\nkind: WorkloadPriorityClass\nmetadata: {name: high}\n" + body));
    }

    private static PriorityClassInfo podClass(String body) {
        return PriorityClassDecoder.decodePriorityClass(Yaml.parse(
                "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\n" + body));
    }

    static Stream<Arguments> accepted() {
        return Stream.of(
                arguments("a workload priority class has a value and a description",
                        workloadClass("value: 10000\ndescription: \"Sample priority\""), new PriorityClassInfo("high", 10000, false)),
                arguments("negative workload priorities are allowed", workloadClass("value: -5"), new PriorityClassInfo("high", -5, false)),
                arguments("the largest user-defined value is allowed", workloadClass("value: 1000000000"),
                        new PriorityClassInfo("high", 1_000_000_000, false)),
                arguments("a pod priority class may be the global default", podClass("value: 100\nglobalDefault: true"),
                        new PriorityClassInfo("high", 100, true)),
                arguments("globalDefault defaults to false", podClass("value: 100"), new PriorityClassInfo("high", 100, false)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("accepted")
    void accepts(String behaviour, PriorityClassInfo decoded, PriorityClassInfo expected) {
        assertThat(decoded).isEqualTo(expected);
    }

    static Stream<Arguments> rejected() {
        return Stream.of(
                arguments("a workload priority class needs a value", (Runnable) () -> workloadClass("description: x"),
                        "value", "Required value"),
                arguments("system range is reserved for workload classes", (Runnable) () -> workloadClass("value: 2000000000"),
                        "value", "Invalid value: 2000000000: maximum allowed value of a user defined priority is 1000000000"),
                arguments("values beyond 32 bits are reserved too", (Runnable) () -> workloadClass("value: 9000000000"),
                        "value", "Invalid value: 9000000000: maximum allowed value of a user defined priority is 1000000000"),
                arguments("a value is an integer, not a string", (Runnable) () -> workloadClass("value: \"10\""),
                        "value", "Invalid value: \"string\": must be of type integer"),
                arguments("a description is a string", (Runnable) () -> workloadClass("value: 1\ndescription: [a]"),
                        "description", "Invalid value: \"array\": must be of type string"),
                arguments("system range is reserved for pod classes", (Runnable) () -> podClass("value: 2000001000"),
                        "value", "Invalid value: 2000001000: maximum allowed value of a user defined priority is 1000000000"),
                arguments("a pod priority class needs a value", (Runnable) () -> podClass("globalDefault: false"),
                        "value", "Required value"),
                arguments("globalDefault is a boolean", (Runnable) () -> podClass("value: 1\nglobalDefault: yes-please"),
                        "globalDefault", "Invalid value: \"string\": must be of type boolean"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rejected")
    void rejects(String behaviour, Runnable decode, String field, String message) {
        List<FieldCause> causes = Yaml.causesOf(decode);
        assertThat(causes).as(Yaml.describe(causes)).anySatisfy(cause -> {
            assertThat(cause.field()).isEqualTo(field);
            assertThat(cause.message()).startsWith(message);
        });
    }
}
