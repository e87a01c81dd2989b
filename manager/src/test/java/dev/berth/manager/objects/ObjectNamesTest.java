package dev.berth.manager.objects;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class ObjectNamesTest {

    static Stream<Arguments> subdomains() {
        return Stream.of(
                arguments("a lowercase name is valid", "team-a-cq", List.of()),
                arguments("dots separate labels", "gpu.example.com", List.of()),
                arguments("digits may start a name", "1st", List.of()),
                arguments("253 characters are allowed", "a".repeat(253), List.of()),
                arguments("a missing name is required", null, List.of("Required value")),
                arguments("an empty name is required", "", List.of("Required value")),
                arguments("uppercase is refused", "Team", List.of("Invalid value: \"Team\": " + ObjectNames.SUBDOMAIN_MESSAGE)),
                arguments("underscores are refused", "team_a", List.of("Invalid value: \"team_a\": " + ObjectNames.SUBDOMAIN_MESSAGE)),
                arguments("a trailing dash is refused", "team-", List.of("Invalid value: \"team-\": " + ObjectNames.SUBDOMAIN_MESSAGE)),
                arguments("254 characters are too many", "a".repeat(254),
                        List.of("Invalid value: \"" + "a".repeat(254) + "\": must be no more than 253 characters")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("subdomains")
    void validatesSubdomainNames(String behaviour, String name, List<String> messages) {
        List<FieldCause> causes = new ArrayList<>();
        ObjectNames.validateName("metadata.name", name, causes);
        assertThat(causes).extracting(FieldCause::message).containsExactlyElementsOf(messages);
        assertThat(causes).allSatisfy(cause -> assertThat(cause.field()).isEqualTo("metadata.name"));
    }

    static Stream<Arguments> labels() {
        return Stream.of(
                arguments("a namespace name is valid", "team-a", 0),
                arguments("63 characters are allowed", "a".repeat(63), 0),
                arguments("64 characters are too many", "a".repeat(64), 1),
                arguments("dots are refused in labels", "team.a", 1),
                arguments("a missing label name is required", null, 1));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("labels")
    void validatesLabelNames(String behaviour, String name, int problems) {
        List<FieldCause> causes = new ArrayList<>();
        ObjectNames.validateLabelName("spec.podSets[0].name", name, causes);
        assertThat(causes).hasSize(problems);
    }
}
