package dev.berth.manager.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.objects.InvalidObjectException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;

/**
 * Decodes an {@code application/vnd.kubernetes.protobuf} request body (the "k8s\0" prefix, then a
 * runtime.Unknown holding the object) of a built-in kind into the JSON object a JSON client would send:
 * JSON field names and inlining from the Go struct tags, zero values of non-pointer omitempty fields left
 * out, Time as RFC 3339, Quantity and IntOrString in their JSON forms, bytes as base64. Nesting is bounded
 * by {@link ManifestReader#MAX_DEPTH} and the number of fields by {@link ManifestReader#MAX_YAML_NODES};
 * the body itself by the caller's body limit.
 */
public final class KubernetesProtobuf {
    public static final String MEDIA_TYPE = "application/vnd.kubernetes.protobuf";
    private static final byte[] MAGIC = {'k', '8', 's', 0};
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String META = "k8s.io.apimachinery.pkg.apis.meta.v1.";
    private static final DateTimeFormatter MICRO = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss'Z'").withZone(ZoneOffset.UTC);
    /** apiVersion/kind → protobuf message of the built-in kinds Berth serves. */
    private static final Map<String, String> KINDS = Map.of(
            "v1/Namespace", "k8s.io.api.core.v1.Namespace",
            "v1/Pod", "k8s.io.api.core.v1.Pod",
            "v1/Secret", "k8s.io.api.core.v1.Secret",
            "v1/Event", "k8s.io.api.core.v1.Event",
            "batch/v1/Job", "k8s.io.api.batch.v1.Job",
            "scheduling.k8s.io/v1/PriorityClass", "k8s.io.api.scheduling.v1.PriorityClass",
            "rbac.authorization.k8s.io/v1/Role", "k8s.io.api.rbac.v1.Role",
            "rbac.authorization.k8s.io/v1/RoleBinding", "k8s.io.api.rbac.v1.RoleBinding",
            "rbac.authorization.k8s.io/v1/ClusterRole", "k8s.io.api.rbac.v1.ClusterRole",
            "rbac.authorization.k8s.io/v1/ClusterRoleBinding", "k8s.io.api.rbac.v1.ClusterRoleBinding");
    /** The self reviews kubectl posts as protobuf (create-only, never stored, so not in {@link #KINDS}). */
    private static final Map<String, String> REVIEWS = Map.of(
            "authorization.k8s.io/v1/SelfSubjectAccessReview", "k8s.io.api.authorization.v1.SelfSubjectAccessReview",
            "authorization.k8s.io/v1/SelfSubjectRulesReview", "k8s.io.api.authorization.v1.SelfSubjectRulesReview");

    private final ProtobufSchema schema;
    private final Map<String, String> kinds;
    private long fieldsLeft = ManifestReader.MAX_YAML_NODES;

    private KubernetesProtobuf(ProtobufSchema schema, Map<String, String> kinds) {
        this.schema = schema;
        this.kinds = kinds;
    }

    public static boolean isProtobuf(String contentType) {
        return ManifestReader.mediaType(contentType).equals(MEDIA_TYPE);
    }

    /**
     * @throws InvalidObjectException 400 for a body that is not a well-formed protobuf object
     * @throws ApiException 415 for a kind that has no protobuf form here (custom resources)
     */
    public static ObjectNode decode(byte[] body) {
        return decode(body, KINDS);
    }

    /**
     * A self review kubectl posts (authorization.k8s.io/v1 SelfSubjectAccessReview or SelfSubjectRulesReview).
     *
     * @throws InvalidObjectException 400 for a body that is not a well-formed protobuf review
     */
    public static ObjectNode decodeReview(byte[] body) {
        try {
            return decode(body, REVIEWS);
        } catch (ApiException otherKind) {
            throw InvalidObjectException.badRequest("the protobuf body is not a self review: " + otherKind.getMessage());
        }
    }

    private static ObjectNode decode(byte[] body, Map<String, String> kinds) {
        if (body.length < MAGIC.length || !Arrays.equals(Arrays.copyOf(body, MAGIC.length), MAGIC)) {
            throw InvalidObjectException.badRequest("the protobuf body does not start with the Kubernetes envelope prefix \"k8s\\0\"");
        }
        return new KubernetesProtobuf(ProtobufSchema.KUBERNETES, kinds).envelope(new ProtobufWire(body, MAGIC.length, body.length));
    }

    private ObjectNode envelope(ProtobufWire wire) {
        ObjectNode unknown = message(wire, schema.message("k8s.io.apimachinery.pkg.runtime.Unknown"), "envelope", 0);
        String apiVersion = unknown.path("apiVersion").asText("");
        String kind = unknown.path("kind").asText("");
        String encoding = unknown.path("contentEncoding").asText("");
        if (!encoding.isEmpty()) throw InvalidObjectException.badRequest("the protobuf envelope's contentEncoding " + encoding + " is not supported");
        String messageName = kinds.get(apiVersion + "/" + kind);
        ProtobufSchema.Message type = messageName == null ? null : schema.message(messageName);
        if (type == null || kind.isEmpty()) {
            throw new ApiException(415, "UnsupportedMediaType", "the body of the request was in an unknown format - a protobuf body is accepted for Kubernetes' built-in kinds only, not for "
                    + (kind.isEmpty() ? "an object without a kind" : apiVersion + " " + kind) + "; accepted media types include: application/json, application/yaml", null, null, null, java.util.List.of());
        }
        byte[] raw = unknown.has("raw") ? Base64.getDecoder().decode(unknown.get("raw").asText()) : new byte[0];
        ObjectNode object = NODES.objectNode();
        object.put("apiVersion", apiVersion);
        object.put("kind", kind);
        object.setAll(message(new ProtobufWire(raw, 0, raw.length), type, "", 0));
        return object;
    }

    private ObjectNode message(ProtobufWire wire, ProtobufSchema.Message type, String where, int depth) {
        if (depth > ManifestReader.MAX_DEPTH) throw ProtobufWire.malformed(where, "nesting is deeper than " + ManifestReader.MAX_DEPTH);
        ObjectNode object = NODES.objectNode();
        while (!wire.atEnd()) {
            if (--fieldsLeft < 0) throw ProtobufWire.malformed(where, "more than " + ManifestReader.MAX_YAML_NODES + " fields");
            long tag = wire.tag(where);
            int wireType = (int) (tag & 7);
            ProtobufSchema.Field field = type.fields().get((int) (tag >>> 3));
            if (field == null) {
                wire.skip(wireType, where);
                continue;
            }
            String at = field.inline() ? where : join(where, field.jsonName());
            switch (field.label()) {
                case OPT -> {
                    JsonNode value = value(wire, wireType, field.type(), at, depth);
                    if (field.inline() && value instanceof ObjectNode inlined) object.setAll(inlined);
                    else if (value == null || (field.omitZero() && isZero(value))) object.remove(field.jsonName());
                    else object.set(field.jsonName(), value);
                }
                case REP -> repeated(wire, wireType, field, object.withArray(field.jsonName()), at, depth);
                case MAP -> entry(wire, wireType, field, object.with(field.jsonName()), at, depth);
            }
        }
        return object;
    }

    private void repeated(ProtobufWire wire, int wireType, ProtobufSchema.Field field, ArrayNode into, String where, int depth) {
        String at = where + "[" + into.size() + "]";
        boolean packable = !field.type().contains(".") && !field.type().equals("string") && !field.type().equals("bytes");
        if (packable && wireType == ProtobufWire.LENGTH_DELIMITED) {
            ProtobufWire packed = wire.slice(at);
            int elementWireType = field.type().equals("double") ? ProtobufWire.FIXED64 : field.type().equals("float") ? ProtobufWire.FIXED32 : ProtobufWire.VARINT;
            while (!packed.atEnd()) into.add(value(packed, elementWireType, field.type(), at, depth));
            return;
        }
        JsonNode value = value(wire, wireType, field.type(), at, depth);
        into.add(value == null ? NODES.nullNode() : value);
    }

    private void entry(ProtobufWire wire, int wireType, ProtobufSchema.Field field, ObjectNode into, String where, int depth) {
        expect(wireType, ProtobufWire.LENGTH_DELIMITED, where);
        ProtobufWire entry = wire.slice(where);
        String key = "";
        JsonNode value = null;
        while (!entry.atEnd()) {
            long tag = entry.tag(where);
            int number = (int) (tag >>> 3);
            if (number == 1) key = value(entry, (int) (tag & 7), "string", where, depth).asText();
            else if (number == 2) value = value(entry, (int) (tag & 7), field.valueType(), join(where, key), depth);
            else entry.skip((int) (tag & 7), where);
        }
        if (value == null) value = zero(field.valueType());
        into.set(key, value);
    }

    /** One value of the given type, or null for what JSON leaves out (a zero Time). */
    private JsonNode value(ProtobufWire wire, int wireType, String type, String where, int depth) {
        switch (type) {
            case "string" -> {
                expect(wireType, ProtobufWire.LENGTH_DELIMITED, where);
                return NODES.textNode(text(wire.slice(where).remaining(), where));
            }
            case "bytes" -> {
                expect(wireType, ProtobufWire.LENGTH_DELIMITED, where);
                return NODES.textNode(Base64.getEncoder().encodeToString(wire.slice(where).remaining()));
            }
            case "bool" -> {
                expect(wireType, ProtobufWire.VARINT, where);
                return NODES.booleanNode(wire.varint(where) != 0);
            }
            case "int32" -> {
                expect(wireType, ProtobufWire.VARINT, where);
                return NODES.numberNode((int) wire.varint(where));
            }
            case "int64", "uint32", "uint64" -> {
                expect(wireType, ProtobufWire.VARINT, where);
                long value = wire.varint(where);
                if (!type.equals("int64") && value < 0) return NODES.numberNode(new java.math.BigInteger(Long.toUnsignedString(value)));
                // as a JSON reader would hold it
                return value == (int) value ? NODES.numberNode((int) value) : NODES.numberNode(value);
            }
            case "double" -> {
                expect(wireType, ProtobufWire.FIXED64, where);
                return NODES.numberNode(Double.longBitsToDouble(wire.fixed(8, where)));
            }
            case "float" -> {
                expect(wireType, ProtobufWire.FIXED32, where);
                return NODES.numberNode(Float.intBitsToFloat((int) wire.fixed(4, where)));
            }
            default -> {
                expect(wireType, ProtobufWire.LENGTH_DELIMITED, where);
                ProtobufSchema.Message message = schema.message(type);
                if (message == null) throw ProtobufWire.malformed(where, "no protobuf message " + type);
                return special(type, message(wire.slice(where), message, where, depth + 1), where);
            }
        }
    }

    /** The JSON form of the types whose JSON is not their protobuf message. */
    private static JsonNode special(String type, ObjectNode decoded, String where) {
        switch (type) {
            case META + "Time", META + "MicroTime" -> {
                long seconds = decoded.path("seconds").asLong(0);
                int nanos = decoded.path("nanos").asInt(0);
                if (seconds == 0 && nanos == 0) return null;
                Instant instant = Instant.ofEpochSecond(seconds, nanos);
                return NODES.textNode(type.endsWith("MicroTime") ? MICRO.format(instant) : SECONDS.format(instant));
            }
            case "k8s.io.apimachinery.pkg.api.resource.Quantity" -> {
                return NODES.textNode(decoded.path("string").asText(""));
            }
            case "k8s.io.apimachinery.pkg.util.intstr.IntOrString" -> {
                return decoded.path("type").asLong(0) == 1 ? NODES.textNode(decoded.path("strVal").asText(""))
                        : NODES.numberNode(decoded.path("intVal").asInt(0));
            }
            case META + "FieldsV1", "k8s.io.apimachinery.pkg.runtime.RawExtension" -> {
                JsonNode raw = decoded.path(type.endsWith("FieldsV1") ? "Raw" : "raw");
                if (raw.isMissingNode()) return NODES.objectNode();
                return ManifestReader.readAny(Base64.getDecoder().decode(raw.asText()));
            }
            default -> {
                return decoded;
            }
        }
    }

    private static JsonNode zero(String type) {
        return switch (type) {
            case "string", "bytes", "k8s.io.apimachinery.pkg.api.resource.Quantity" -> NODES.textNode("");
            case "bool" -> NODES.booleanNode(false);
            case "int32", "int64", "uint32", "uint64", "double", "float" -> NODES.numberNode(0);
            default -> NODES.objectNode();
        };
    }

    private static boolean isZero(JsonNode value) {
        return (value.isTextual() && value.asText().isEmpty()) || (value.isNumber() && value.asDouble() == 0)
                || (value.isBoolean() && !value.asBoolean());
    }

    private static void expect(int wireType, int expected, String where) {
        if (wireType != expected) throw ProtobufWire.malformed(where, "wire type " + wireType + " where " + expected + " was expected");
    }

    private static String text(byte[] bytes, String where) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw ProtobufWire.malformed(where, "a string is not valid UTF-8");
        }
    }

    private static String join(String where, String name) {
        return where.isEmpty() ? name : where + "." + name;
    }
}
