package dev.berth.manager.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Iterator;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The decoded tree a stored version keeps ({@link DecodedTrees}) is shared by every read of that version: no
 * caller's change to what it was given, or to what it wrote, may ever reach the store, and the kept tree must be
 * exactly what parsing the stored bytes gives.
 */
class StoredObjectTreeTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-02T03:04:05Z"), ZoneOffset.UTC);
    private static final ObjectKey KEY = new ObjectKey("kueue.x-k8s.io/clusterqueues", "", "a");

    private final MemoryObjectStore store = new MemoryObjectStore(CLOCK);

    @Test
    void changingWhatAReadGaveLeavesTheStoreAlone() {
        store.create(KEY, queue(1));
        String stored = json(store.get(KEY).orElseThrow());

        ObjectNode read = store.get(KEY).orElseThrow().object();
        read.with("spec").put("cpu", 99);
        read.with("metadata").put("name", "changed");
        read.remove("status");
        ObjectNode again = store.get(KEY).orElseThrow().object();
        again.removeAll();

        assertThat(json(store.get(KEY).orElseThrow())).isEqualTo(stored);
        assertThat(store.get(KEY).orElseThrow().object().path("spec").path("cpu").asInt()).isEqualTo(1);
    }

    @Test
    void changingWhatAWriteTookOrReturnedLeavesTheStoreAlone() {
        ObjectNode body = queue(1);
        StoredObject created = store.create(KEY, body);
        body.with("spec").put("cpu", 50);
        created.object().with("spec").put("cpu", 51);

        ObjectNode replacement = queue(2);
        StoredObject replaced = store.replace(KEY, replacement, null);
        replacement.with("spec").put("cpu", 52);
        replaced.object().with("spec").put("cpu", 53);

        ObjectNode status = JSON.createObjectNode().put("phase", "Active");
        StoredObject statused = store.replaceStatus(KEY, status, null);
        status.put("phase", "Changed");
        statused.object().with("status").put("phase", "Changed too");

        ObjectNode read = store.get(KEY).orElseThrow().object();
        assertThat(read.path("spec").path("cpu").asInt()).isEqualTo(2);
        assertThat(read.path("status").path("phase").asText()).isEqualTo("Active");
        assertThat(read).isEqualTo(parsed(store.get(KEY).orElseThrow()));
    }

    @Test
    void aReplaceFromTheKeptTreeLeavesTheEarlierVersionAsItWas() {
        StoredObject first = store.create(KEY, queue(1));
        first.readOnlyObject(); // decoded and kept
        String firstJson = json(first);
        store.replace(KEY, queue(2), null);
        store.replaceStatus(KEY, JSON.createObjectNode().put("phase", "Active"), null);

        assertThat(json(first)).isEqualTo(firstJson);
        assertThat(first.object()).isEqualTo(parsed(first));
        assertThat(first.object().has("status")).isFalse();
    }

    @Test
    void aStatusWriteSharesTheUnchangedFieldsWithTheVersionBeforeAndChangesNeither() {
        StoredObject first = store.create(KEY, queue(1));
        String firstJson = json(first);
        StoredObject second = store.replaceStatus(KEY, JSON.createObjectNode().put("phase", "Active"), null);
        StoredObject third = store.replaceStatus(KEY, JSON.createObjectNode().put("phase", "Done"), null);

        assertThat(second.readOnlyObject().get("spec")).isSameAs(first.readOnlyObject().get("spec"));
        assertThat(third.readOnlyObject().path("metadata").get("labels")).isSameAs(first.readOnlyObject().path("metadata").get("labels"));
        assertThat(json(first)).isEqualTo(firstJson);
        for (StoredObject version : new StoredObject[] {first, second, third}) {
            assertSameNodes(version.readOnlyObject(), parsed(version));
            assertThat(version.readOnlyObject().path("metadata").path("resourceVersion").asText())
                    .isEqualTo(Long.toString(version.resourceVersion()));
        }
        // the fields keep their order: a status written in place, not moved to the end
        assertThat(json(third)).startsWith("{\"apiVersion\":\"kueue.x-k8s.io/v1beta2\",\"kind\":\"ClusterQueue\",\"metadata\":{\"name\":\"a\"")
                .endsWith("\"status\":{\"phase\":\"Done\"}}");
        StoredObject removed = store.replaceStatus(KEY, null, null);
        assertThat(removed.readOnlyObject().has("status")).isFalse();
        assertThat(third.readOnlyObject().path("status").path("phase").asText()).isEqualTo("Done");
    }

    @Test
    void aDeleteTellsWatchersTheLastVersionAtTheDeletesRevisionAndLeavesThatVersionAlone() {
        ChangeFeedStore feed = new ChangeFeedStore(store);
        java.util.List<StoreChange> heard = new java.util.ArrayList<>();
        feed.listen(heard::add);
        feed.create(KEY, queue(1));
        StoredObject last = feed.replaceStatus(KEY, JSON.createObjectNode().put("phase", "Active"), null);
        String lastJson = json(last);

        assertThat(feed.delete(KEY)).isEqualTo(last);

        StoredObject deleted = heard.get(heard.size() - 1).object();
        assertThat(deleted.resourceVersion()).isEqualTo(store.revision()).isGreaterThan(last.resourceVersion());
        ObjectNode expected = parsed(last);
        expected.with("metadata").put("resourceVersion", Long.toString(store.revision()));
        assertSameNodes(deleted.readOnlyObject(), expected);
        assertSameNodes(deleted.object(), parsed(deleted));
        assertThat(json(last)).isEqualTo(lastJson);
        assertThat(last.readOnlyObject()).isEqualTo(parsed(last));
    }

    @Test
    void aKeptTreeIsNodeForNodeTheParseOfTheBytes() {
        JsonNodeFactory nodes = JsonNodeFactory.instance;
        ObjectNode odd = queue(1);
        odd.set("long", nodes.numberNode(1L));
        odd.set("short", nodes.numberNode((short) 2));
        odd.set("float", nodes.numberNode(1.5f));
        odd.set("decimal", nodes.numberNode(new BigDecimal("2.50")));
        odd.set("bigSmall", nodes.numberNode(BigInteger.TEN));
        odd.set("bigLarge", nodes.numberNode(new BigInteger("123456789012345678901234567890")));
        odd.set("binary", nodes.binaryNode(new byte[] {1, 2, 3}));
        odd.set("largeLong", nodes.numberNode(Long.MAX_VALUE));
        odd.putArray("mixed").add(1).add(2.25).add("x").addNull().add(true);

        for (ObjectNode body : new ObjectNode[] {queue(1), odd}) {
            StoredObject stored = store.create(new ObjectKey(KEY.resource(), "", "n" + System.identityHashCode(body)), body);
            assertSameNodes(stored.readOnlyObject(), parsed(stored));
            assertSameNodes(store.get(stored.key()).orElseThrow().readOnlyObject(), parsed(stored));
            assertSameNodes(stored.object(), parsed(stored));
        }
    }

    @Test
    void onlyTheMostRecentlyDecodedVersionsKeepTheirTree() {
        DecodedTrees trees = new DecodedTrees(2);
        StoredObject[] objects = new StoredObject[3];
        for (int i = 0; i < 3; i++) {
            objects[i] = StoredObject.fromJson(KEY, i + 1, ("{\"n\":" + i + "}").getBytes());
            objects[i].readOnlyObject();
            trees.remember(objects[i]);
        }
        assertThat(objects[0].holdsTree()).isFalse();
        assertThat(objects[1].holdsTree()).isTrue();
        assertThat(objects[2].holdsTree()).isTrue();
        assertThat(objects[0].readOnlyObject().path("n").asInt()).isZero(); // parsed again
    }

    @Test
    void aReaderThatChangesTheSharedTreeFailsTheNextReadInTests() {
        assumeTrue(StoredObject.class.desiredAssertionStatus(), "the guard runs with assertions enabled (as Surefire runs tests)");
        store.create(KEY, queue(1));
        store.get(KEY).orElseThrow().readOnlyObject().with("spec").put("cpu", 7); // what no reader may do

        assertThatThrownBy(() -> store.get(KEY).orElseThrow().object()).isInstanceOf(AssertionError.class)
                .hasMessageContaining("changed by a reader");
    }

    @Test
    void aReadOnlyReadIsTheStoredObject() {
        store.create(KEY, queue(3));
        StoredObject stored = store.get(KEY).orElseThrow();
        assertThat(stored.readOnlyObject()).isEqualTo(parsed(stored));
        assertThat(stored.readOnlyObject()).isSameAs(stored.readOnlyObject());
        assertThat(stored.object()).isNotSameAs(stored.readOnlyObject()).isEqualTo(stored.readOnlyObject());
    }

    private static ObjectNode queue(int cpu) {
        ObjectNode object = JSON.createObjectNode().put("apiVersion", "kueue.x-k8s.io/v1beta2").put("kind", "ClusterQueue");
        object.putObject("metadata").put("name", "a").putObject("labels").put("team", "x");
        object.putObject("spec").put("cpu", cpu).putArray("flavors").addObject().put("name", "default");
        return object;
    }

    private static String json(StoredObject stored) {
        return new String(stored.json(), java.nio.charset.StandardCharsets.UTF_8);
    }

    private static ObjectNode parsed(StoredObject stored) {
        try {
            return (ObjectNode) JSON.readTree(stored.json());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void assertSameNodes(JsonNode actual, JsonNode expected) {
        assertThat(actual).isEqualTo(expected);
        assertThat(actual.getClass()).isEqualTo(expected.getClass());
        if (expected.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> fields = expected.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> field = fields.next();
                assertSameNodes(actual.get(field.getKey()), field.getValue());
            }
        } else if (expected.isArray()) {
            for (int i = 0; i < expected.size(); i++) assertSameNodes(actual.get(i), expected.get(i));
        }
    }
}
