package dev.berth.manager.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** A journal record carries the object's stored bytes unchanged, and decodes back to the same write. */
class JournalFormatTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aRecordHoldsTheObjectsBytesAsTheyAreAndDecodesToTheSameWrite() throws Exception {
        ObjectNode object = JSON.createObjectNode().put("kind", "Job").put("text", "quote \" backslash \\ ü €");
        object.putObject("metadata").put("name", "a\u00e9").put("namespace", "team-a");
        object.putObject("spec").put("n", 3).put("x", 1.25).putArray("list").add(1).addNull();
        StoredObject stored = StoredObject.of(new ObjectKey("batch/jobs", "team-a", "a\u00e9"), 42, object);

        byte[] frame = JournalFormat.encode(new WriteRecord(WriteRecord.Op.PUT, stored), StorageTransformer.IDENTITY);

        ByteBuffer buffer = ByteBuffer.wrap(frame);
        byte[] payload = new byte[buffer.getInt()];
        buffer.getInt();
        buffer.get(payload);
        JsonNode record = JSON.readTree(payload);
        assertThat(record.path("op").asText()).isEqualTo("PUT");
        assertThat(record.path("resourceVersion").asLong()).isEqualTo(42);
        assertThat(record.path("name").asText()).isEqualTo("a\u00e9");
        assertThat(JSON.writeValueAsBytes(record.get("object"))).isEqualTo(stored.json());
        JournalFormat.Decoded decoded = JournalFormat.decode(frame);
        assertThat(decoded.problem()).isNull();
        assertThat(decoded.entries()).hasSize(1);
        assertThat(decoded.entries().get(0).write().object()).isEqualTo(stored);
        assertThat(Arrays.equals(decoded.entries().get(0).write().object().json(), stored.json())).isTrue();
    }
}
