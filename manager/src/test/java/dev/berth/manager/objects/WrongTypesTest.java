package dev.berth.manager.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Every field of a valid object, replaced in turn by a value of every JSON type, is either accepted
 * or refused with a 422 whose causes name fields: never a Jackson exception or a NullPointerException.
 */
class WrongTypesTest {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final List<JsonNode> REPLACEMENTS = List.of(
            JSON.objectNode().put("a", "b"), JSON.arrayNode().add("x"), JSON.textNode("x"), JSON.textNode(""),
            JSON.numberNode(-7), JSON.numberNode(1.5), JSON.booleanNode(true), JSON.nullNode());

    private static final Map<String, Consumer<ObjectNode>> DECODERS = Map.of(
            "ClusterQueue", ClusterQueueDecoder::decode,
            "ResourceFlavor", ResourceFlavorDecoder::decode,
            "Cohort", CohortDecoder::decode,
            "LocalQueue", LocalQueueDecoder::decode,
            "WorkloadPriorityClass", PriorityClassDecoder::decodeWorkloadPriorityClass,
            "PriorityClass", PriorityClassDecoder::decodePriorityClass,
            "Namespace", NamespaceDecoder::labels,
            "AdmissionCheck", AdmissionCheckDecoder::decode);

    private static final List<String> SAMPLES = List.of("""
            kind: ClusterQueue
            metadata: {name: cq}
            spec:
              cohortName: team-ab
              queueingStrategy: StrictFIFO
              stopPolicy: Hold
              namespaceSelector:
                matchLabels: {team: a}
                matchExpressions: [{key: tier, operator: In, values: [gold]}]
              resourceGroups:
              - coveredResources: [cpu, memory]
                flavors:
                - name: default
                  resources:
                  - {name: cpu, nominalQuota: 9, borrowingLimit: 1, lendingLimit: 2}
                  - {name: memory, nominalQuota: 1Gi}
              flavorFungibility: {whenCanBorrow: TryNextFlavor, whenCanPreempt: TryNextFlavor, preference: BorrowingOverPreemption}
              preemption:
                withinClusterQueue: LowerPriority
                reclaimWithinCohort: Any
                borrowWithinCohort: {policy: LowerPriority, maxPriorityThreshold: 10}
              admissionChecksStrategy:
                admissionChecks: [{name: prov, onFlavors: [default]}]
              fairSharing: {weight: 2}
            """, """
            kind: ResourceFlavor
            metadata: {name: spot}
            spec:
              nodeLabels: {spot: "true"}
              nodeTaints: [{key: spot, value: "true", effect: NoSchedule}]
              tolerations: [{key: spot, operator: Equal, value: "true", effect: NoSchedule}]
            """, """
            kind: Cohort
            metadata: {name: research}
            spec:
              parentName: org
              resourceGroups:
              - coveredResources: [cpu]
                flavors: [{name: default, resources: [{name: cpu, nominalQuota: 9, lendingLimit: 1}]}]
              fairSharing: {weight: 1}
            """,
            "kind: LocalQueue\nmetadata: {name: main, namespace: team-a}\nspec: {clusterQueue: cq, stopPolicy: Hold}",
            "kind: WorkloadPriorityClass\nmetadata: {name: high}\nvalue: 10\ndescription: high",
            "kind: PriorityClass\nmetadata: {name: high}\nvalue: 10\nglobalDefault: true",
            "kind: Namespace\nmetadata: {name: team-a, labels: {team: a}}",
            "kind: AdmissionCheck\nmetadata: {name: prov}\nspec: {controllerName: example.com/prov}");

    @TestFactory
    Stream<DynamicTest> everyFieldOfEveryTypeIsAcceptedOrRefusedWithCauses() {
        List<DynamicTest> tests = new ArrayList<>();
        for (String sample : SAMPLES) {
            ObjectNode valid = Yaml.parse(sample);
            Consumer<ObjectNode> decoder = DECODERS.get(valid.get("kind").asText());
            tests.add(DynamicTest.dynamicTest(valid.get("kind").asText() + " sample is valid", () -> decoder.accept(valid.deepCopy())));
            for (String pointer : pointers(valid, "")) {
                if (pointer.equals("/kind")) continue;
                for (JsonNode replacement : REPLACEMENTS) {
                    tests.add(DynamicTest.dynamicTest(valid.get("kind").asText() + " " + pointer + " = " + replacement, () -> {
                        ObjectNode object = replaced(valid, pointer, replacement);
                        Throwable thrown = catchThrowable(() -> decoder.accept(object));
                        if (thrown != null) {
                            assertThat(thrown).isInstanceOf(InvalidObjectException.class);
                            InvalidObjectException invalid = (InvalidObjectException) thrown;
                            assertThat(invalid.httpStatus()).isEqualTo(422);
                            assertThat(invalid.causes()).isNotEmpty().allSatisfy(cause -> assertThat(cause.field()).isNotBlank());
                        }
                    }));
                }
            }
        }
        return tests.stream();
    }

    private static List<String> pointers(JsonNode node, String prefix) {
        List<String> pointers = new ArrayList<>();
        if (node.isObject()) {
            node.properties().forEach(entry -> {
                String pointer = prefix + "/" + entry.getKey();
                pointers.add(pointer);
                pointers.addAll(pointers(entry.getValue(), pointer));
            });
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                String pointer = prefix + "/" + i;
                pointers.add(pointer);
                pointers.addAll(pointers(node.get(i), pointer));
            }
        }
        return pointers;
    }

    private static ObjectNode replaced(ObjectNode valid, String pointer, JsonNode replacement) {
        ObjectNode copy = valid.deepCopy();
        int slash = pointer.lastIndexOf('/');
        JsonNode parent = copy.at(pointer.substring(0, slash));
        String last = pointer.substring(slash + 1);
        if (parent instanceof ObjectNode object) object.set(last, replacement.deepCopy());
        else ((ArrayNode) parent).set(Integer.parseInt(last), replacement.deepCopy());
        return copy;
    }
}
