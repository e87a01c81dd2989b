package dev.berth.manager.store;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;

/**
 * The on-disk framing shared by the journal and the snapshot: each entry is a 4-byte length, a
 * 4-byte CRC32 of the payload, then the payload, a JSON object
 * {@code {op, resource, namespace, name, resourceVersion, object}}. A snapshot starts with an
 * entry of op SNAPSHOT carrying the store revision.
 */
final class JournalFormat {
    static final int HEADER_BYTES = 8;
    static final int MAX_PAYLOAD_BYTES = 256 * 1024 * 1024;
    static final String SNAPSHOT = "SNAPSHOT";
    private static final byte[] OBJECT_FIELD = ",\"object\":".getBytes(StandardCharsets.UTF_8);

    private JournalFormat() {}

    /** One decoded entry: either a write, or (op SNAPSHOT) just a revision. */
    record Entry(String op, WriteRecord write, long revision) {}

    /** The entries that decode cleanly, and the offset where the clean prefix ends. */
    record Decoded(List<Entry> entries, long validBytes, String problem) {}

    /** The record's object goes through the transformer (encryption at rest of Secrets) on its way out. */
    static byte[] encode(WriteRecord record, StorageTransformer transformer) {
        ObjectKey key = record.object().key();
        return frame(payload(record.op().name(), key, record.revision(), transformer.toStorage(key, record.object().jsonUnsafe())));
    }

    /**
     * A decoded PUT's object back through the transformer. Kept out of {@link #decode}: a value that
     * cannot be decrypted is a configuration error to stop on, never a torn tail to cut off.
     */
    static WriteRecord opened(WriteRecord write, StorageTransformer transformer) {
        if (write.op() != WriteRecord.Op.PUT) return write;
        StoredObject object = write.object();
        byte[] plain = transformer.fromStorage(object.key(), object.jsonUnsafe());
        return plain == object.jsonUnsafe() ? write
                : new WriteRecord(write.op(), StoredObject.fromJson(object.key(), object.resourceVersion(), plain));
    }

    static byte[] encodeSnapshotHeader(long revision) {
        return frame(payload(SNAPSHOT, null, revision, null));
    }

    static Decoded decode(byte[] file) {
        List<Entry> entries = new ArrayList<>();
        ByteBuffer buffer = ByteBuffer.wrap(file);
        while (buffer.remaining() > 0) {
            int start = buffer.position();
            if (buffer.remaining() < HEADER_BYTES) {
                return new Decoded(entries, start, "short header at offset " + start);
            }
            int length = buffer.getInt();
            int crc = buffer.getInt();
            if (length <= 0 || length > MAX_PAYLOAD_BYTES || length > buffer.remaining()) {
                return new Decoded(entries, start, "bad length " + length + " at offset " + start);
            }
            byte[] payload = new byte[length];
            buffer.get(payload);
            if (crc(payload) != crc) {
                return new Decoded(entries, start, "checksum mismatch at offset " + start);
            }
            try {
                entries.add(entry(payload));
            } catch (IOException | RuntimeException e) {
                return new Decoded(entries, start, "unreadable entry at offset " + start + ": " + e.getMessage());
            }
        }
        return new Decoded(entries, file.length, null);
    }

    private static Entry entry(byte[] payload) throws IOException {
        JsonNode node = StoredObject.JSON.readTree(payload);
        String op = node.get("op").asText();
        long revision = node.get("resourceVersion").asLong();
        if (SNAPSHOT.equals(op)) return new Entry(op, null, revision);
        ObjectKey key = new ObjectKey(node.get("resource").asText(), node.get("namespace").asText(), node.get("name").asText());
        JsonNode object = node.get("object");
        if (!object.isObject()) throw new IOException("object is not a JSON object");
        StoredObject stored = StoredObject.fromJson(key, revision, StoredObject.JSON.writeValueAsBytes(object));
        return new Entry(op, new WriteRecord(WriteRecord.Op.valueOf(op), stored), revision);
    }

    private static byte[] payload(String op, ObjectKey key, long revision, byte[] object) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(object == null ? 64 : object.length + 128);
        try (JsonGenerator json = StoredObject.JSON.getFactory().createGenerator(out)) {
            json.writeStartObject();
            json.writeStringField("op", op);
            if (key != null) {
                json.writeStringField("resource", key.resource());
                json.writeStringField("namespace", key.namespace());
                json.writeStringField("name", key.name());
            }
            json.writeNumberField("resourceVersion", revision);
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (object == null) return out.toByteArray();
        // the object's bytes are JSON already: spliced in as they are (the same bytes writeRawValue wrote), not
        // decoded into a String and encoded again on every write
        byte[] head = out.toByteArray();
        ByteArrayOutputStream whole = new ByteArrayOutputStream(head.length + OBJECT_FIELD.length + object.length + 1);
        whole.write(head, 0, head.length - 1);
        whole.writeBytes(OBJECT_FIELD);
        whole.writeBytes(object);
        whole.write('}');
        return whole.toByteArray();
    }


    private static byte[] frame(byte[] payload) {
        ByteBuffer buffer = ByteBuffer.allocate(HEADER_BYTES + payload.length);
        buffer.putInt(payload.length).putInt(crc(payload)).put(payload);
        return buffer.array();
    }

    private static int crc(byte[] payload) {
        CRC32 crc = new CRC32();
        crc.update(payload);
        return (int) crc.getValue();
    }
}
