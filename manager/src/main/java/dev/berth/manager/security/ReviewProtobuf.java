package dev.berth.manager.security;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.objects.InvalidObjectException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads the self reviews kubectl posts as {@code application/vnd.kubernetes.protobuf} (its typed
 * clients use protobuf for built-in groups) into their JSON form: the "k8s\0" envelope, a
 * runtime.Unknown whose raw bytes are the review. Only the fields a review's answer needs are read
 * (numbers from k8s.io/api authorization/v1 generated.proto); others are skipped. Input is bounded by the
 * caller's body limit, and the message nesting here is fixed, so the work is linear in the body.
 */
public final class ReviewProtobuf {
    public static final String MEDIA_TYPE = "application/vnd.kubernetes.protobuf";
    private static final byte[] MAGIC = {'k', '8', 's', 0};
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String[] RESOURCE_ATTRIBUTES = {null, "namespace", "verb", "group", "version", "resource", "subresource", "name"};
    private static final String[] NON_RESOURCE_ATTRIBUTES = {null, "path", "verb"};

    private ReviewProtobuf() {}

    /** One field of a message: its number and, for length-delimited fields, its bytes (null for numbers). */
    private record Field(int number, byte[] bytes) {}

    /** What a review body asks, in its JSON form. */
    public enum Kind { ACCESS_REVIEW, RULES_REVIEW }

    /** @throws InvalidObjectException 400 when the body is not a well-formed protobuf review */
    public static ObjectNode read(byte[] body, Kind kind) {
        if (body.length < MAGIC.length || !Arrays.equals(Arrays.copyOf(body, MAGIC.length), MAGIC)) {
            throw InvalidObjectException.badRequest("the protobuf body does not start with the Kubernetes envelope prefix");
        }
        byte[] raw = first(fields(Arrays.copyOfRange(body, MAGIC.length, body.length)), 2);
        if (raw == null) throw InvalidObjectException.badRequest("the protobuf envelope holds no object");
        ObjectNode review = NODES.objectNode();
        byte[] spec = first(fields(raw), 2);
        if (spec == null) return review;
        ObjectNode specNode = review.putObject("spec");
        List<Field> specFields = fields(spec);
        if (kind == Kind.RULES_REVIEW) {
            byte[] namespace = first(specFields, 1);
            if (namespace != null) specNode.put("namespace", text(namespace));
            return review;
        }
        byte[] resource = first(specFields, 1);
        if (resource != null) strings(resource, RESOURCE_ATTRIBUTES, specNode.putObject("resourceAttributes"));
        byte[] nonResource = first(specFields, 2);
        if (nonResource != null) strings(nonResource, NON_RESOURCE_ATTRIBUTES, specNode.putObject("nonResourceAttributes"));
        return review;
    }

    private static void strings(byte[] message, String[] names, ObjectNode into) {
        for (Field field : fields(message)) {
            if (field.bytes() != null && field.number() < names.length && names[field.number()] != null) {
                into.put(names[field.number()], text(field.bytes()));
            }
        }
    }

    private static byte[] first(List<Field> fields, int number) {
        return fields.stream().filter(f -> f.number() == number && f.bytes() != null).map(Field::bytes).findFirst().orElse(null);
    }

    private static List<Field> fields(byte[] message) {
        List<Field> fields = new ArrayList<>();
        int[] at = {0};
        while (at[0] < message.length) {
            long key = varint(message, at);
            int number = (int) (key >>> 3);
            int wireType = (int) (key & 7);
            if (number <= 0) throw malformed();
            switch (wireType) {
                case 0 -> {
                    varint(message, at);
                    fields.add(new Field(number, null));
                }
                case 1 -> skip(message, at, 8);
                case 5 -> skip(message, at, 4);
                case 2 -> {
                    long length = varint(message, at);
                    if (length < 0 || length > message.length - at[0]) throw malformed();
                    fields.add(new Field(number, Arrays.copyOfRange(message, at[0], at[0] + (int) length)));
                    at[0] += (int) length;
                }
                default -> throw malformed();
            }
        }
        return fields;
    }

    private static long varint(byte[] message, int[] at) {
        long value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (at[0] >= message.length) throw malformed();
            byte b = message[at[0]++];
            value |= (long) (b & 0x7f) << shift;
            if ((b & 0x80) == 0) return value;
        }
        throw malformed();
    }

    private static void skip(byte[] message, int[] at, int bytes) {
        if (message.length - at[0] < bytes) throw malformed();
        at[0] += bytes;
    }

    private static String text(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw InvalidObjectException.badRequest("a string in the protobuf review is not valid UTF-8");
        }
    }

    private static InvalidObjectException malformed() {
        return InvalidObjectException.badRequest("the protobuf review is malformed");
    }
}
