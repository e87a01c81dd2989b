package dev.berth.manager.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The strategic merge patch algorithm on the shapes of apimachinery's own strategicpatch tests (a
 * MergeItem with a merging list keyed by name, a merging int list, a non-merging list, a simple map),
 * compared exactly, order included.
 */
class StrategicMergePatchTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final PatchShape ITEM = PatchShape.of().mergeList("mergingList", "name").scalarSet("mergingIntList");
    private static final PatchShape MERGE_ITEM = PatchShape.of().mergeList("mergingList", "name", ITEM).scalarSet("mergingIntList");

    static Stream<Arguments> patches() {
        return Stream.of(
                Arguments.of("null removes a key; a null for an absent key is ignored",
                        "{'name':1,'value':1}", "{'value':null,'other':null}", "{'name':1}"),
                Arguments.of("unique scalars when merging lists",
                        "{'mergingIntList':[1,2]}", "{'mergingIntList':[2,3]}", "{'mergingIntList':[1,2,3]}"),
                Arguments.of("$patch delete empties a nested map",
                        "{'simpleMap':{'key1':1,'key2':1}}", "{'simpleMap':{'$patch':'delete'}}", "{'simpleMap':{}}"),
                Arguments.of("$patch replace as a list element empties the list",
                        "{'mergingList':[{'name':1},{'name':2}]}", "{'mergingList':[{'$patch':'replace'}]}", "{'mergingList':[]}"),
                Arguments.of("$patch replace on a map keeps only the patch's keys",
                        "{'name':1,'value':1}", "{'other':'a','$patch':'replace'}", "{'other':'a'}"),
                Arguments.of("$patch replace with elements makes the list exactly those",
                        "{'mergingList':[{'name':1,'value':1}]}", "{'mergingList':[{'name':2},{'$patch':'replace'}]}", "{'mergingList':[{'name':2}]}"),
                Arguments.of("$patch delete removes every element with that key, duplicates included",
                        "{'mergingList':[{'name':1},{'name':1},{'name':2,'value':'a'},{'name':3},{'name':3}]}",
                        "{'mergingList':[{'name':1,'$patch':'delete'},{'name':3,'$patch':'delete'}]}",
                        "{'mergingList':[{'name':2,'value':'a'}]}"),
                Arguments.of("an element merges with the stored one of the same key, keeping what the patch omits",
                        "{'mergingList':[{'name':1,'value':1,'other':'a'},{'name':2}]}", "{'mergingList':[{'name':1,'value':2}]}",
                        "{'mergingList':[{'name':1,'value':2,'other':'a'},{'name':2}]}"),
                Arguments.of("new elements come before the stored ones, as kube orders them",
                        "{'mergingList':[{'name':1},{'name':2}]}", "{'mergingList':[{'name':3}]}",
                        "{'mergingList':[{'name':3},{'name':1},{'name':2}]}"),
                Arguments.of("$setElementOrder puts an added element where kubectl set env wants it",
                        "{'mergingList':[{'name':1,'value':1}]}",
                        "{'$setElementOrder/mergingList':[{'name':1},{'name':2}],'mergingList':[{'name':2,'value':2}]}",
                        "{'mergingList':[{'name':1,'value':1},{'name':2,'value':2}]}"),
                Arguments.of("$setElementOrder reorders stored and patched elements",
                        "{'mergingList':[{'name':1},{'name':2},{'name':3}]}",
                        "{'$setElementOrder/mergingList':[{'name':3},{'name':1},{'name':2},{'name':4}],'mergingList':[{'name':4,'value':4}]}",
                        "{'mergingList':[{'name':3},{'name':1},{'name':2},{'name':4,'value':4}]}"),
                Arguments.of("$setElementOrder of a set of scalars",
                        "{'mergingIntList':[1,2]}", "{'$setElementOrder/mergingIntList':[2,1,3],'mergingIntList':[3]}",
                        "{'mergingIntList':[2,1,3]}"),
                Arguments.of("$setElementOrder of a nested list inside a merged element",
                        "{'mergingList':[{'name':'c','mergingList':[{'name':'A','value':'1'}]}]}",
                        "{'$setElementOrder/mergingList':[{'name':'c'}],'mergingList':[{'name':'c',"
                                + "'$setElementOrder/mergingList':[{'name':'A'},{'name':'B'}],'mergingList':[{'name':'B','value':'2'}]}]}",
                        "{'mergingList':[{'name':'c','mergingList':[{'name':'A','value':'1'},{'name':'B','value':'2'}]}]}"),
                Arguments.of("$retainKeys drops the stored keys it does not name",
                        "{'name':1,'value':1,'other':'a'}", "{'$retainKeys':['name','other'],'other':'b'}", "{'name':1,'other':'b'}"),
                Arguments.of("$deleteFromPrimitiveList removes those scalars",
                        "{'mergingIntList':[1,2,3]}", "{'$deleteFromPrimitiveList/mergingIntList':[2]}", "{'mergingIntList':[1,3]}"),
                Arguments.of("$deleteFromPrimitiveList of an absent list changes nothing",
                        "{'name':1}", "{'$deleteFromPrimitiveList/mergingIntList':[2]}", "{'name':1}"),
                Arguments.of("a list without a merge strategy is replaced",
                        "{'nonMergingList':[{'name':1,'value':1}],'nonMergingIntList':[1,2]}",
                        "{'nonMergingList':[{'name':2}],'nonMergingIntList':[3]}", "{'nonMergingList':[{'name':2}],'nonMergingIntList':[3]}"),
                Arguments.of("directives in a value the target lacks are read, never stored",
                        "{}", "{'simpleMap':{'$patch':'replace','a':1,'b':null},'mergingList':[{'name':1,"
                                + "'$setElementOrder/mergingIntList':[2],'mergingIntList':[2]},{'name':9,'$patch':'delete'}]}",
                        "{'simpleMap':{'a':1},'mergingList':[{'name':1,'mergingIntList':[2]}]}"),
                Arguments.of("merge keys compare numbers by value",
                        "{'mergingList':[{'name':80,'value':'a'}]}", "{'mergingList':[{'name':80.0,'other':'b'}]}",
                        "{'mergingList':[{'name':80.0,'value':'a','other':'b'}]}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("patches")
    void appliesAsKubernetesDoes(String behaviour, String original, String patch, String expected) throws Exception {
        ObjectNode target = object(original);
        ObjectNode before = target.deepCopy();

        ObjectNode result = StrategicMergePatch.apply(target, object(patch), MERGE_ITEM);

        assertThat(result).as("lists compare in order, objects by their keys").isEqualTo(object(expected));
        assertThat(target).as("the target is left unchanged").isEqualTo(before);
    }

    static Stream<Arguments> refusals() {
        return Stream.of(
                Arguments.of("an element without its merge key", "{'mergingList':[{'value':1}]}", 400, "does not contain declared merge key: name"),
                Arguments.of("a $patch delete element without its merge key", "{'mergingList':[{'$patch':'delete'}]}", 400,
                        "does not contain declared merge key: name"),
                Arguments.of("an unknown $patch", "{'simpleMap':{'$patch':'explode'}}", 400, "unknown patch type"),
                Arguments.of("an unknown directive", "{'$explode':1}", 400, "unknown strategic merge patch directive"),
                Arguments.of("a key outside $retainKeys", "{'$retainKeys':['name'],'value':2}", 400, "retainKeys"),
                Arguments.of("$retainKeys that is not a list", "{'$retainKeys':'name'}", 400, "invalid patch format of retainKeys"),
                Arguments.of("$setElementOrder contradicting the patch's order",
                        "{'$setElementOrder/mergingList':[{'name':2},{'name':1}],'mergingList':[{'name':1},{'name':2}]}", 400,
                        "invalid patch format of setElementOrder list"),
                Arguments.of("$deleteFromPrimitiveList that is not a list", "{'$deleteFromPrimitiveList/mergingIntList':3}", 400,
                        "invalid patch format of primitive list"),
                Arguments.of("a list of lists in a merging list", "{'mergingList':[[1]]}", 422, "lists of lists"),
                Arguments.of("objects in a set of scalars", "{'mergingIntList':[{'a':1}]}", 400, "list element types are not identical"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusals")
    void malformedPatchesAreRefusedWithKubesMessages(String behaviour, String patch, int code, String message) throws Exception {
        ObjectNode target = object("{'name':1,'value':1,'mergingList':[{'name':1}],'mergingIntList':[1]}");

        ApiException refused = catchThrowableOfType(ApiException.class, () -> StrategicMergePatch.apply(target, object(patch), MERGE_ITEM));

        assertThat(refused).as(behaviour).isNotNull();
        assertThat(refused.code()).isEqualTo(code);
        assertThat(refused.getMessage()).contains(message);
    }

    @Test
    void refusalsNameTheFieldTheyHappenedAt() throws Exception {
        ObjectNode target = object("{'mergingList':[{'name':'c','mergingList':[]}]}");

        ApiException refused = catchThrowableOfType(ApiException.class, () -> StrategicMergePatch.apply(target,
                object("{'mergingList':[{'name':'c','mergingList':[{'value':1}]}]}"), MERGE_ITEM));

        assertThat(refused.getMessage()).contains("(at mergingList[name=c].mergingList)");
    }

    @Test
    void aContainerPatchKeepsImageAndResourcesOfABuiltInJob() throws Exception {
        ObjectNode job = object("{'spec':{'template':{'spec':{'containers':[{'name':'c','image':'img:1','resources':{'requests':{'cpu':'1'}},"
                + "'env':[{'name':'X','value':'0'}]}],'tolerations':[{'key':'a'}]}}}}");

        ObjectNode patched = StrategicMergePatch.apply(job, object("{'spec':{'template':{'spec':{'containers':[{'name':'c',"
                + "'env':[{'name':'A','value':'1'}]}],'tolerations':[{'key':'b'}]}}}}"), BuiltInPatchShapes.JOB);

        JsonNode container = patched.at("/spec/template/spec/containers/0");
        assertThat(container.path("image").asText()).isEqualTo("img:1");
        assertThat(container.at("/resources/requests/cpu").asText()).isEqualTo("1");
        assertThat(container.path("env").toString()).isEqualTo(json("[{'name':'A','value':'1'},{'name':'X','value':'0'}]"));
        assertThat(patched.at("/spec/template/spec/tolerations").toString()).as("tolerations are atomic").isEqualTo(json("[{'key':'b'}]"));
    }

    @Test
    void finalizersMergeAsASetAndOwnerReferencesByUid() throws Exception {
        ObjectNode namespace = object("{'metadata':{'finalizers':['a'],'ownerReferences':[{'uid':'1','name':'x'}]}}");

        ObjectNode patched = StrategicMergePatch.apply(namespace, object("{'metadata':{'finalizers':['b','a'],"
                + "'ownerReferences':[{'uid':'1','controller':true}]}}"), BuiltInPatchShapes.NAMESPACE);

        assertThat(patched.at("/metadata/finalizers").toString()).isEqualTo(json("['b','a']"));
        assertThat(patched.at("/metadata/ownerReferences").toString()).isEqualTo(json("[{'uid':'1','name':'x','controller':true}]"));
    }

    @Test
    void largeListsMergeInLinearTime() {
        int size = 20_000;
        ObjectNode target = JSON.createObjectNode();
        ObjectNode patch = JSON.createObjectNode();
        ArrayNode stored = target.putArray("mergingList");
        ArrayNode patched = patch.putArray("mergingList");
        ArrayNode order = patch.putArray("$setElementOrder/mergingList");
        for (int i = 0; i < size; i++) {
            stored.addObject().put("name", "e" + i).put("value", i);
            patched.addObject().put("name", "e" + (size - 1 - i)).put("other", i);
            order.addObject().put("name", "e" + (size - 1 - i));
        }

        ObjectNode result = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> StrategicMergePatch.apply(target, patch, MERGE_ITEM));

        assertThat(result.get("mergingList")).hasSize(size);
        assertThat(result.at("/mergingList/0/name").asText()).isEqualTo("e" + (size - 1));
        assertThat(result.at("/mergingList/0/value").asInt()).isEqualTo(size - 1);
    }

    private static ObjectNode object(String singleQuoted) throws Exception {
        return (ObjectNode) JSON.readTree(json(singleQuoted));
    }

    private static String json(String singleQuoted) {
        return singleQuoted.replace('\'', '"');
    }
}
