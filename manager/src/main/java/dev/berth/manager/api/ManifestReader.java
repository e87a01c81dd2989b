package dev.berth.manager.api;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.objects.InvalidObjectException;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.Node;

/**
 * Reads request bodies and manifest files, JSON or (multi-document) YAML, strictly: invalid UTF-8,
 * duplicate keys, deep nesting, alias bombs (collection or scalar aliases expanding past
 * {@value #MAX_YAML_ALIAS_BYTES} bytes) and non-object documents are refused with a 400 that says what and where.
 */
public final class ManifestReader {
    public static final int MAX_DEPTH = 100;
    public static final int MAX_YAML_ALIASES = 50;
    public static final long MAX_YAML_NODES = 1_000_000;
    /** What alias expansion may add to one YAML document, estimated as JSON bytes, scalar aliases included. */
    public static final long MAX_YAML_ALIAS_BYTES = 256 * 1024;
    private static final ObjectMapper JSON = JsonMapper.builder(com.fasterxml.jackson.core.JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build())
                    .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                    .disable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
                    .build())
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private ManifestReader() {}

    /** Whether a Content-Type names a body format this reader understands. */
    public static boolean isYaml(String contentType) {
        String type = mediaType(contentType);
        return type.equals("application/yaml") || type.equals("application/x-yaml")
                || type.equals("text/yaml") || type.equals("text/x-yaml");
    }

    public static boolean isJson(String contentType) {
        String type = mediaType(contentType);
        return type.isEmpty() || type.equals("application/json") || type.equals("application/merge-patch+json");
    }

    /**
     * @throws InvalidObjectException 400 for a body that cannot be read
     * @throws ApiException 415 for a Content-Type that is neither JSON nor YAML
     */
    public static List<ObjectNode> read(byte[] body, String contentType) {
        if (isYaml(contentType)) return readYaml(decodeUtf8(body));
        if (isJson(contentType)) return List.of(readJson(decodeUtf8(body)));
        throw ApiException.unsupportedMediaType(contentType);
    }

    static String mediaType(String contentType) {
        if (contentType == null) return "";
        int semicolon = contentType.indexOf(';');
        return (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).trim().toLowerCase(Locale.ROOT);
    }

    private static String decodeUtf8(byte[] body) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(body);
        CharBuffer out = CharBuffer.allocate(body.length);
        CoderResult result = decoder.decode(in, out, true);
        if (result.isError()) {
            throw InvalidObjectException.badRequest("the request body is not valid UTF-8: invalid byte sequence at byte offset " + in.position());
        }
        decoder.flush(out);
        return out.flip().toString();
    }

    /** A JSON body of any shape (a JSON patch is an array), read as strictly as an object. */
    static JsonNode readAny(byte[] body) {
        return readTree(decodeUtf8(body));
    }

    private static ObjectNode readJson(String text) {
        return asObject(readTree(text), "the request body");
    }

    private static JsonNode readTree(String text) {
        if (text.isBlank()) throw InvalidObjectException.badRequest("the request body is empty");
        JsonNode node;
        try {
            node = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            String where = at == null ? "" : "line " + at.getLineNr() + ", column " + at.getColumnNr() + ": ";
            throw InvalidObjectException.badRequest("json: " + where + e.getOriginalMessage());
        }
        return node;
    }

    private static List<ObjectNode> readYaml(String text) {
        LoaderOptions options = new LoaderOptions();
        options.setMaxAliasesForCollections(MAX_YAML_ALIASES);
        options.setNestingDepthLimit(MAX_DEPTH);
        options.setAllowDuplicateKeys(false);
        options.setCodePointLimit(Math.max(text.length() + 1, 1024));
        List<ObjectNode> documents = new ArrayList<>();
        int index = 0;
        try {
            Iterator<Node> composed = new Yaml(options).composeAll(new StringReader(text)).iterator();
            while (composed.hasNext()) {
                index++;
                Node node = composed.next();
                if (node == null) continue;
                JsonNode tree = new YamlTreeConverter(MAX_DEPTH, MAX_YAML_NODES, MAX_YAML_ALIAS_BYTES).convert(node);
                if (tree.isNull() || (tree.isTextual() && tree.asText().isEmpty())) continue;
                documents.add(asObject(tree, "document " + index + " (" + YamlTreeConverter.where(node) + ")"));
            }
        } catch (MarkedYAMLException e) {
            Mark mark = e.getProblemMark();
            String where = mark == null ? "" : "line " + (mark.getLine() + 1) + ", column " + (mark.getColumn() + 1) + ": ";
            throw InvalidObjectException.badRequest("yaml: " + where + e.getProblem());
        } catch (YAMLException e) {
            throw InvalidObjectException.badRequest("yaml: " + e.getMessage());
        } catch (NumberFormatException e) {
            // SnakeYAML's scanner parses the hexadecimal digits of a cut-short escape with Integer.parseInt and lets its failure out
            throw InvalidObjectException.badRequest("yaml: did not find the expected hexadecimal number of an escape in a double-quoted string");
        } catch (StackOverflowError e) {
            throw InvalidObjectException.badRequest("yaml: nesting is too deep");
        }
        if (documents.isEmpty()) throw InvalidObjectException.badRequest("the request body holds no object");
        return documents;
    }

    private static ObjectNode asObject(JsonNode node, String what) {
        if (node instanceof ObjectNode object) return object;
        throw InvalidObjectException.badRequest(what + " must be an object, not " + describe(node));
    }

    private static String describe(JsonNode node) {
        if (node.isArray()) return "an array";
        if (node.isTextual()) return "a string";
        if (node.isNumber()) return "a number";
        if (node.isBoolean()) return "a boolean";
        if (node.isNull()) return "null";
        return node.getNodeType().name().toLowerCase(Locale.ROOT);
    }
}
