package dev.berth.manager.objects;

import dev.berth.manager.model.AdmissionCheckRule;
import dev.berth.manager.model.ClusterQueueSpec;
import dev.berth.manager.model.FlavorFungibility;
import dev.berth.manager.model.FlavorFungibility.Policy;
import dev.berth.manager.model.LabelRequirement;
import dev.berth.manager.model.LabelSelector;
import dev.berth.manager.model.Preemption;
import dev.berth.manager.model.PreemptionPolicy;
import dev.berth.manager.model.QueueingStrategy;
import dev.berth.manager.model.ResourceQuota;
import dev.berth.manager.model.StopPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class ClusterQueueDecoderTest {
    private static final String ONE_GROUP = """
            resourceGroups:
            - coveredResources: ["cpu"]
              flavors:
              - name: default
                resources:
                - name: cpu
                  nominalQuota: 9
            """;

    private static ClusterQueueSpec decode(String spec) {
        return ClusterQueueDecoder.decode(Yaml.object("ClusterQueue", "cq", spec));
    }

    @Test
    void kueueDocumentationSampleDecodes() {
        ClusterQueueSpec cq = ClusterQueueDecoder.decode(Yaml.resource("kueue-docs-cluster-queue.yaml"));

        assertThat(cq.name()).isEqualTo("team-a-cq");
        assertThat(cq.cohort()).isEqualTo("team-ab");
        assertThat(cq.namespaceSelector()).isEqualTo(LabelSelector.EVERYTHING);
        assertThat(cq.resourceGroups()).hasSize(2);
        assertThat(cq.resourceGroups().get(0).coveredResources()).containsExactly("cpu", "memory");
        assertThat(cq.resourceGroups().get(0).flavors().get(0).resources()).containsExactly(
                new ResourceQuota("cpu", 9000, 6000L, 4000L),
                new ResourceQuota("memory", 36L << 30, 24L << 30, 16L << 30));
        assertThat(cq.resourceGroups().get(1).flavors().get(0).flavor()).isEqualTo("a100");
        assertThat(cq.resourceGroups().get(1).flavors().get(0).resources())
                .containsExactly(new ResourceQuota("nvidia.com/gpu", 8, null, 2L));
        assertThat(cq.preemption()).isEqualTo(new Preemption(PreemptionPolicy.LOWER_PRIORITY, PreemptionPolicy.ANY,
                PreemptionPolicy.LOWER_PRIORITY, 100));
        assertThat(cq.flavorFungibility())
                .isEqualTo(new FlavorFungibility(Policy.TRY_NEXT_FLAVOR, Policy.MAY_STOP_SEARCH, null));
        assertThat(cq.queueingStrategy()).isEqualTo(QueueingStrategy.BEST_EFFORT_FIFO);
        assertThat(cq.stopPolicy()).isEqualTo(StopPolicy.NONE);
        assertThat(cq.fairSharingWeight()).isEqualTo(1.0);
    }

    static Stream<Arguments> accepted() {
        return Stream.of(
                arguments("defaults apply when only resource groups are given", ONE_GROUP,
                        (Consumer<ClusterQueueSpec>) cq -> {
                            assertThat(cq.cohort()).isNull();
                            assertThat(cq.namespaceSelector()).isNull();
                            assertThat(cq.queueingStrategy()).isEqualTo(QueueingStrategy.BEST_EFFORT_FIFO);
                            assertThat(cq.flavorFungibility()).isEqualTo(FlavorFungibility.DEFAULT);
                            assertThat(cq.preemption()).isEqualTo(Preemption.NONE);
                            assertThat(cq.stopPolicy()).isEqualTo(StopPolicy.NONE);
                            assertThat(cq.admissionChecks()).isEmpty();
                            assertThat(cq.fairSharingWeight()).isEqualTo(1.0);
                        }),
                arguments("an empty spec is a queue without quota", "{}",
                        (Consumer<ClusterQueueSpec>) cq -> assertThat(cq.resourceGroups()).isEmpty()),
                arguments("quotas may be strings or JSON numbers", """
                        resourceGroups:
                        - coveredResources: ["cpu", "memory", "pods"]
                          flavors:
                          - name: default
                            resources:
                            - {name: cpu, nominalQuota: "500m"}
                            - {name: memory, nominalQuota: 1.5}
                            - {name: pods, nominalQuota: 5}
                        """,
                        (Consumer<ClusterQueueSpec>) cq -> assertThat(cq.resourceGroups().get(0).flavors().get(0).resources())
                                .extracting(ResourceQuota::nominal).containsExactly(500L, 2L, 5L)),
                arguments("an empty cohortName means no cohort", "cohortName: \"\"\n" + ONE_GROUP,
                        (Consumer<ClusterQueueSpec>) cq -> assertThat(cq.cohort()).isNull()),
                arguments("admissionScope UsageBasedAdmissionFairSharing turns admission fair sharing on",
                        "admissionScope: {admissionMode: UsageBasedAdmissionFairSharing}\n" + ONE_GROUP,
                        (Consumer<ClusterQueueSpec>) cq -> assertThat(cq.usageBasedAdmissionFairSharing()).isTrue()),
                arguments("admissionScope NoAdmissionFairSharing leaves it off",
                        "admissionScope: {admissionMode: NoAdmissionFairSharing}\n" + ONE_GROUP,
                        (Consumer<ClusterQueueSpec>) cq -> assertThat(cq.usageBasedAdmissionFairSharing()).isFalse()),
                arguments("StrictFIFO is kept", "queueingStrategy: StrictFIFO\n" + ONE_GROUP,
                        (Consumer<ClusterQueueSpec>) cq -> assertThat(cq.queueingStrategy()).isEqualTo(QueueingStrategy.STRICT_FIFO)),
                arguments("a namespace selector keeps its labels and expressions", """
                        namespaceSelector:
                          matchLabels: {team: a}
                          matchExpressions:
                          - {key: tier, operator: In, values: [gold, silver]}
                          - {key: example.com/frozen, operator: DoesNotExist}
                        """,
                        (Consumer<ClusterQueueSpec>) cq -> assertThat(cq.namespaceSelector()).isEqualTo(new LabelSelector(
                                Map.of("team", "a"),
                                List.of(new LabelRequirement("tier", "In", List.of("gold", "silver")),
                                        new LabelRequirement("example.com/frozen", "DoesNotExist", List.of()))))),
                arguments("a null namespace selector selects nothing", "namespaceSelector: null",
                        (Consumer<ClusterQueueSpec>) cq -> assertThat(cq.namespaceSelector()).isNull()),
                arguments("a preference is allowed when both policies try the next flavor", """
                        flavorFungibility:
                          whenCanBorrow: TryNextFlavor
                          whenCanPreempt: TryNextFlavor
                          preference: PreemptionOverBorrowing
                        """,
                        (Consumer<ClusterQueueSpec>) cq -> assertThat(cq.flavorFungibility().preference())
                                .isEqualTo(FlavorFungibility.Preference.PREEMPTION_OVER_BORROWING)),
                arguments("admission checks keep their flavors", """
                        admissionChecksStrategy:
                          admissionChecks:
                          - name: prov
                            onFlavors: [spot]
                          - name: audit
                        """,
                        (Consumer<ClusterQueueSpec>) cq -> assertThat(cq.admissionChecks()).containsExactly(
                                new AdmissionCheckRule("prov", List.of("spot")), new AdmissionCheckRule("audit", List.of()))),
                arguments("stopPolicy HoldAndDrain is kept", "stopPolicy: HoldAndDrain",
                        (Consumer<ClusterQueueSpec>) cq -> assertThat(cq.stopPolicy()).isEqualTo(StopPolicy.HOLD_AND_DRAIN)),
                arguments("fair sharing weight may be zero", "fairSharing: {weight: 0}",
                        (Consumer<ClusterQueueSpec>) cq -> assertThat(cq.fairSharingWeight()).isEqualTo(0.0)),
                arguments("fair sharing weight is a quantity", "fairSharing: {weight: 500m}",
                        (Consumer<ClusterQueueSpec>) cq -> assertThat(cq.fairSharingWeight()).isEqualTo(0.5)),
                arguments("reclaim and borrow preemption together are allowed", """
                        preemption:
                          reclaimWithinCohort: LowerPriority
                          borrowWithinCohort: {policy: LowerPriority}
                        """,
                        (Consumer<ClusterQueueSpec>) cq -> assertThat(cq.preemption().borrowWithinCohortPolicy())
                                .isEqualTo(PreemptionPolicy.LOWER_PRIORITY)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("accepted")
    void accepts(String behaviour, String spec, Consumer<ClusterQueueSpec> check) {
        check.accept(decode(spec));
    }

    static Stream<Arguments> rejected() {
        return Stream.of(
                arguments("a quota must be a quantity", ONE_GROUP.replace("nominalQuota: 9", "nominalQuota: abc"),
                        "spec.resourceGroups[0].flavors[0].resources[0].nominalQuota",
                        "Invalid value: \"abc\": quantities must match the regular expression"),
                arguments("a quota may not be negative", ONE_GROUP.replace("nominalQuota: 9", "nominalQuota: -1"),
                        "spec.resourceGroups[0].flavors[0].resources[0].nominalQuota",
                        "Invalid value: \"-1\": must be greater than or equal to 0"),
                arguments("nominalQuota is required", ONE_GROUP.replace("nominalQuota: 9", "borrowingLimit: 1"),
                        "spec.resourceGroups[0].flavors[0].resources[0].nominalQuota", "Required value"),
                arguments("borrowingLimit needs a cohort", ONE_GROUP.replace("nominalQuota: 9", "nominalQuota: 9\n      borrowingLimit: 1"),
                        "spec.resourceGroups[0].flavors[0].resources[0].borrowingLimit",
                        "Invalid value: \"1\": must be nil when cohort is empty"),
                arguments("lendingLimit needs a cohort", ONE_GROUP.replace("nominalQuota: 9", "nominalQuota: 9\n      lendingLimit: 1"),
                        "spec.resourceGroups[0].flavors[0].resources[0].lendingLimit",
                        "Invalid value: \"1\": must be nil when cohort is empty"),
                arguments("lendingLimit may not exceed nominalQuota",
                        "cohortName: c\n" + ONE_GROUP.replace("nominalQuota: 9", "nominalQuota: 9\n      lendingLimit: 10"),
                        "spec.resourceGroups[0].flavors[0].resources[0].lendingLimit",
                        "Invalid value: \"10\": must be less than or equal to the nominalQuota"),
                arguments("a flavor must list the covered resources in order", """
                        resourceGroups:
                        - coveredResources: ["cpu", "memory"]
                          flavors:
                          - name: default
                            resources:
                            - {name: memory, nominalQuota: 1Gi}
                            - {name: cpu, nominalQuota: 1}
                        """,
                        "spec.resourceGroups[0].flavors[0].resources[0].name", "Invalid value: \"memory\": must match coveredResources"),
                arguments("a flavor must list every covered resource", """
                        resourceGroups:
                        - coveredResources: ["cpu", "memory"]
                          flavors:
                          - name: default
                            resources:
                            - {name: cpu, nominalQuota: 1}
                          - name: spot
                            resources:
                            - {name: cpu, nominalQuota: 1}
                        """,
                        "spec.resourceGroups[0].flavors[1].resources", "Invalid value: \"1\": must list the resources of coveredResources"),
                arguments("a resource belongs to one group only", """
                        resourceGroups:
                        - coveredResources: ["cpu"]
                          flavors:
                          - name: a
                            resources: [{name: cpu, nominalQuota: 1}]
                        - coveredResources: ["cpu"]
                          flavors:
                          - name: b
                            resources: [{name: cpu, nominalQuota: 1}]
                        """,
                        "spec.resourceGroups[1].coveredResources[0]", "Duplicate value: \"cpu\""),
                arguments("a flavor belongs to one group only", """
                        resourceGroups:
                        - coveredResources: ["cpu"]
                          flavors:
                          - name: a
                            resources: [{name: cpu, nominalQuota: 1}]
                        - coveredResources: ["memory"]
                          flavors:
                          - name: a
                            resources: [{name: memory, nominalQuota: 1}]
                        """,
                        "spec.resourceGroups[1].flavors[0].name", "Duplicate value: \"a\""),
                arguments("at most 16 resource groups", groups(17),
                        "spec.resourceGroups", "Too many: 17: must have at most 16 items"),
                arguments("at most 64 flavors in a group", flavors(65),
                        "spec.resourceGroups[0].flavors", "Too many: 65: must have at most 64 items"),
                arguments("a group needs covered resources", "resourceGroups:\n- flavors: []",
                        "spec.resourceGroups[0].coveredResources", "Required value"),
                arguments("flavor names are DNS subdomains", ONE_GROUP.replace("name: default", "name: Default"),
                        "spec.resourceGroups[0].flavors[0].name", "Invalid value: \"Default\": a lowercase RFC 1123 subdomain"),
                arguments("the cohort name is a DNS subdomain", "cohortName: Team_A",
                        "spec.cohortName", "Invalid value: \"Team_A\": a lowercase RFC 1123 subdomain"),
                arguments("an object is not a cohort name", "cohortName: {a: b}",
                        "spec.cohortName", "Invalid value: \"object\": must be of type string"),
                arguments("resourceGroups must be an array", "resourceGroups: cpu",
                        "spec.resourceGroups", "Invalid value: \"string\": must be of type array"),
                arguments("unknown queueing strategy", "queueingStrategy: Foo",
                        "spec.queueingStrategy", "Unsupported value: \"Foo\": supported values: \"StrictFIFO\", \"BestEffortFIFO\""),
                arguments("unknown stop policy", "stopPolicy: Pause",
                        "spec.stopPolicy", "Unsupported value: \"Pause\": supported values: \"None\", \"Hold\", \"HoldAndDrain\""),
                arguments("unknown admissionMode", "admissionScope: {admissionMode: Usage}\n" + ONE_GROUP,
                        "spec.admissionScope.admissionMode",
                        "Unsupported value: \"Usage\": supported values: \"UsageBasedAdmissionFairSharing\", \"NoAdmissionFairSharing\""),
                arguments("In needs values", "namespaceSelector:\n  matchExpressions: [{key: team, operator: In}]",
                        "spec.namespaceSelector.matchExpressions[0].values",
                        "Required value: must be specified when `operator` is 'In' or 'NotIn'"),
                arguments("Exists forbids values", "namespaceSelector:\n  matchExpressions: [{key: team, operator: Exists, values: [a]}]",
                        "spec.namespaceSelector.matchExpressions[0].values",
                        "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'"),
                arguments("unknown selector operator", "namespaceSelector:\n  matchExpressions: [{key: team, operator: Gt, values: ['1']}]",
                        "spec.namespaceSelector.matchExpressions[0].operator",
                        "Unsupported value: \"Gt\": supported values: \"In\", \"NotIn\", \"Exists\", \"DoesNotExist\""),
                arguments("selector label values follow label syntax", "namespaceSelector:\n  matchLabels: {team: 'a b'}",
                        "spec.namespaceSelector.matchLabels", "Invalid value: \"a b\": a valid label must be an empty string"),
                arguments("v1beta1 Borrow is not a v1beta2 policy", "flavorFungibility: {whenCanBorrow: Borrow}",
                        "spec.flavorFungibility.whenCanBorrow",
                        "Unsupported value: \"Borrow\": supported values: \"MayStopSearch\", \"TryNextFlavor\""),
                arguments("a preference needs both policies to try the next flavor",
                        "flavorFungibility: {preference: BorrowingOverPreemption}",
                        "spec.flavorFungibility.preference",
                        "Invalid value: \"BorrowingOverPreemption\": may only be set when whenCanBorrow and whenCanPreempt are both TryNextFlavor"),
                arguments("Any is no withinClusterQueue policy", "preemption: {withinClusterQueue: Any}",
                        "spec.preemption.withinClusterQueue",
                        "Unsupported value: \"Any\": supported values: \"Never\", \"LowerPriority\", \"LowerOrNewerEqualPriority\""),
                arguments("borrowing preemption needs reclaim preemption", "preemption: {borrowWithinCohort: {policy: LowerPriority}}",
                        "spec.preemption", "Invalid value: \"object\": reclaimWithinCohort=Never and borrowWithinCohort.Policy!=Never"),
                arguments("maxPriorityThreshold is an integer", """
                        preemption:
                          reclaimWithinCohort: Any
                          borrowWithinCohort: {policy: LowerPriority, maxPriorityThreshold: high}
                        """,
                        "spec.preemption.borrowWithinCohort.maxPriorityThreshold", "Invalid value: \"string\": must be of type integer"),
                arguments("admission checks are named", "admissionChecksStrategy:\n  admissionChecks: [{onFlavors: [a]}]",
                        "spec.admissionChecksStrategy.admissionChecks[0].name", "Required value"),
                arguments("fair sharing weight may not be negative", "fairSharing: {weight: -1}",
                        "spec.fairSharing.weight", "Invalid value: \"-1\": must be greater than or equal to 0"),
                arguments("spec must be an object", null, "spec", "Invalid value: \"array\": must be of type object"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rejected")
    void rejects(String behaviour, String spec, String field, String message) {
        List<FieldCause> causes = Yaml.causesOf(() -> {
            if (spec == null) ClusterQueueDecoder.decode(Yaml.parse("kind: ClusterQueue\nmetadata: {name: cq}\nspec: [1]"));
            else decode(spec);
        });
        assertThat(causes).as(Yaml.describe(causes))
                .anySatisfy(cause -> {
                    assertThat(cause.field()).isEqualTo(field);
                    assertThat(cause.message()).startsWith(message);
                });
    }

    @Test
    void everyProblemIsReportedNotJustTheFirst() {
        List<FieldCause> causes = Yaml.causesOf(() -> ClusterQueueDecoder.decode(Yaml.parse("""
                kind: ClusterQueue
                metadata: {name: Bad_Name}
                spec:
                  queueingStrategy: Foo
                  stopPolicy: Pause
                  resourceGroups:
                  - coveredResources: [cpu]
                    flavors:
                    - name: default
                      resources: [{name: cpu, nominalQuota: abc, borrowingLimit: 1}]
                """)));

        assertThat(causes).extracting(FieldCause::field).containsExactlyInAnyOrder(
                "metadata.name",
                "spec.resourceGroups[0].flavors[0].resources[0].nominalQuota",
                "spec.resourceGroups[0].flavors[0].resources[0].borrowingLimit",
                "spec.queueingStrategy",
                "spec.stopPolicy");
    }

    @Test
    void rejectionMessageReadsLikeKubernetes() {
        InvalidObjectException e = org.assertj.core.api.Assertions.catchThrowableOfType(InvalidObjectException.class,
                () -> decode("stopPolicy: Pause"));

        assertThat(e.getMessage()).isEqualTo("ClusterQueue \"cq\" is invalid: spec.stopPolicy: Unsupported value: "
                + "\"Pause\": supported values: \"None\", \"Hold\", \"HoldAndDrain\"");
    }

    @Test
    void missingNameIsRequired() {
        List<FieldCause> causes = Yaml.causesOf(() -> ClusterQueueDecoder.decode(Yaml.parse("kind: ClusterQueue\nspec: {}")));

        assertThat(causes).containsExactly(FieldCause.required("metadata.name"));
    }

    private static String groups(int count) {
        StringBuilder yaml = new StringBuilder("resourceGroups:\n");
        for (int i = 0; i < count; i++) {
            yaml.append("- coveredResources: [r").append(i).append("]\n  flavors:\n  - name: f").append(i)
                    .append("\n    resources: [{name: r").append(i).append(", nominalQuota: 1}]\n");
        }
        return yaml.toString();
    }

    private static String flavors(int count) {
        StringBuilder yaml = new StringBuilder("resourceGroups:\n- coveredResources: [cpu]\n  flavors:\n");
        for (int i = 0; i < count; i++) {
            yaml.append("  - name: f").append(i).append("\n    resources: [{name: cpu, nominalQuota: 1}]\n");
        }
        return yaml.toString();
    }
}
