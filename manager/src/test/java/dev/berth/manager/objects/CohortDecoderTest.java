package dev.berth.manager.objects;

import dev.berth.manager.model.CohortSpec;
import dev.berth.manager.model.ResourceQuota;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class CohortDecoderTest {
    private static final String LIMITED_QUOTA = """
            resourceGroups:
            - coveredResources: [cpu]
              flavors:
              - name: default
                resources: [{name: cpu, nominalQuota: 10, borrowingLimit: 2, lendingLimit: 5}]
            """;

    private static CohortSpec decode(String spec) {
        return CohortDecoder.decode(Yaml.object("Cohort", "research", spec));
    }

    static Stream<Arguments> accepted() {
        return Stream.of(
                arguments("an empty spec is a root cohort without quota", "{}",
                        (Consumer<CohortSpec>) c -> assertThat(c).isEqualTo(new CohortSpec("research", null, List.of(), 1.0))),
                arguments("a child cohort may set limits", "parentName: org\n" + LIMITED_QUOTA,
                        (Consumer<CohortSpec>) c -> {
                            assertThat(c.parent()).isEqualTo("org");
                            assertThat(c.resourceGroups().get(0).flavors().get(0).resources())
                                    .containsExactly(new ResourceQuota("cpu", 10_000, 2_000L, 5_000L));
                        }),
                arguments("fair sharing weight is read", "fairSharing: {weight: 2}",
                        (Consumer<CohortSpec>) c -> assertThat(c.fairSharingWeight()).isEqualTo(2.0)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("accepted")
    void accepts(String behaviour, String spec, Consumer<CohortSpec> check) {
        check.accept(decode(spec));
    }

    static Stream<Arguments> rejected() {
        return Stream.of(
                arguments("a root cohort may not set a borrowing limit", LIMITED_QUOTA,
                        "spec.resourceGroups[0].flavors[0].resources[0].borrowingLimit",
                        "Invalid value: \"2\": must be nil when cohort is empty"),
                arguments("a root cohort may not set a lending limit", LIMITED_QUOTA,
                        "spec.resourceGroups[0].flavors[0].resources[0].lendingLimit",
                        "Invalid value: \"5\": must be nil when cohort is empty"),
                arguments("a cohort may not be its own parent", "parentName: research",
                        "spec.parentName", "Invalid value: \"research\": a cohort cannot be its own parent"),
                arguments("the parent name is a DNS subdomain", "parentName: Org",
                        "spec.parentName", "Invalid value: \"Org\": a lowercase RFC 1123 subdomain"),
                arguments("quotas are quantities", "parentName: org\n" + LIMITED_QUOTA.replace("nominalQuota: 10", "nominalQuota: ten"),
                        "spec.resourceGroups[0].flavors[0].resources[0].nominalQuota", "Invalid value: \"ten\": quantities must match"));
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
}
