package dev.berth.manager.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

/**
 * The object size limit applied to what will be stored: the encoded final object, after patches,
 * merges, server-side apply, defaults and field ownership, for every verb (413). The body size says
 * little: YAML aliases, JSON patch copies and merges make objects larger than the request that made
 * them. Encoding stops as soon as the limit is passed, so measuring a large object costs no more than the limit.
 */
public final class StoredSizeLimit {
    /** The largest object stored, encoded (kube-apiserver's 1.5 MiB, etcd's request limit). */
    public static final int MAX_OBJECT_BYTES = 1_572_864;
    private static final ObjectMapper JSON = new ObjectMapper();

    private StoredSizeLimit() {}

    static void check(JsonNode object, ResourceType type, String name) {
        long bytes = encodedBytes(object, MAX_OBJECT_BYTES);
        if (bytes > MAX_OBJECT_BYTES) {
            throw new ApiException(413, "RequestEntityTooLarge", "the object is larger than the limit of "
                    + MAX_OBJECT_BYTES + " bytes once encoded as it would be stored", name, type.group(), type.plural(), List.of());
        }
    }

    /** The object's size encoded as JSON, or a number just over stopAfter once it is known to be larger. */
    static long encodedBytes(JsonNode object, long stopAfter) {
        Counter counter = new Counter(stopAfter);
        try {
            JSON.writeValue(counter, object);
        } catch (IOException e) {
            if (counter.count <= stopAfter) throw new IllegalStateException("cannot encode an object", e);
        }
        return counter.count;
    }

    private static final class Counter extends OutputStream {
        private final long stopAfter;
        long count;

        Counter(long stopAfter) {
            this.stopAfter = stopAfter;
        }

        @Override
        public void write(int b) throws IOException {
            add(1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            add(len);
        }

        private void add(long bytes) throws IOException {
            count += bytes;
            if (count > stopAfter) throw new IOException("over " + stopAfter + " bytes");
        }
    }
}
