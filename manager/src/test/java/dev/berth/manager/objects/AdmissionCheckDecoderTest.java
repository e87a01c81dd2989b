package dev.berth.manager.objects;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class AdmissionCheckDecoderTest {

    private static AdmissionCheckInfo decode(String spec) {
        return AdmissionCheckDecoder.decode(Yaml.object("AdmissionCheck", "prov", spec));
    }

    static Stream<Arguments> rejected() {
        return Stream.of(
                arguments("the controller name is required", "{}", "spec.controllerName", "Required value"),
                arguments("the controller name is not empty", "controllerName: ''", "spec.controllerName", "Required value"),
                arguments("the controller name is a string", "controllerName: {a: b}", "spec.controllerName",
                        "Invalid value: \"object\": must be of type string"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rejected")
    void rejects(String behaviour, String spec, String field, String message) {
        List<FieldCause> causes = Yaml.causesOf(() -> decode(spec));
        assertThat(causes).as(Yaml.describe(causes)).anySatisfy(cause -> {
            assertThat(cause.field()).isEqualTo(field);
            assertThat(cause.message()).startsWith(message);
        });
    }

    @ParameterizedTest(name = "a check names its controller: {0}")
    @MethodSource("controllers")
    void accepts(String controller) {
        assertThat(decode("controllerName: " + controller)).isEqualTo(new AdmissionCheckInfo("prov", controller));
    }

    static Stream<String> controllers() {
        return Stream.of("kueue.x-k8s.io/provisioning-request", "kueue.x-k8s.io/multikueue");
    }
}
