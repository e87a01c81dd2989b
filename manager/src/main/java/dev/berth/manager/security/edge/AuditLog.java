package dev.berth.manager.security.edge;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.berth.manager.security.AuditRecord;
import dev.berth.manager.security.CanonicalPath;
import dev.berth.manager.store.PrivateFiles;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Appends one JSON line per {@link AuditRecord} to a file, flushed per line. Thread-safe. The file is
 * the manager user's only (0600, in a 0700 directory, see {@link PrivateFiles}): it names every user
 * and what they touched. Every string in a line is cut to {@link CanonicalPath#MAX_ECHO} characters and
 * at most {@link #MAX_GROUPS} groups are kept, so a caller who chooses a long path, name or namespace
 * cannot make the line long.
 */
public final class AuditLog implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(AuditLog.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    static final int MAX_GROUPS = 32;
    private final Path file;
    private final OutputStream out;

    public AuditLog(Path file) throws IOException {
        this.file = file;
        Path directory = file.toAbsolutePath().getParent();
        if (directory != null) PrivateFiles.parentDirectory(directory);
        PrivateFiles.ownFile(file);
        this.out = Files.newOutputStream(file, StandardOpenOption.APPEND);
    }

    public Path file() {
        return file;
    }

    public synchronized void record(AuditRecord record) {
        try {
            out.write((JSON.writeValueAsString(bounded(record.toJson())) + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        } catch (IOException e) {
            log.atError().setMessage("cannot write the audit log").addKeyValue("file", file.toString()).setCause(e).log();
        }
    }

    /** Every string cut, every list of at most {@link #MAX_GROUPS}, nested objects (the impersonated user) included. */
    static ObjectNode bounded(ObjectNode line) {
        line.properties().forEach(field -> field.setValue(boundedValue(field.getValue())));
        return line;
    }

    private static JsonNode boundedValue(JsonNode value) {
        if (value.isTextual()) return TextNode.valueOf(CanonicalPath.truncated(value.asText()));
        if (value instanceof ObjectNode object) return bounded(object);
        if (value instanceof ArrayNode array) {
            while (array.size() > MAX_GROUPS) array.remove(array.size() - 1);
            for (int i = 0; i < array.size(); i++) array.set(i, boundedValue(array.get(i)));
        }
        return value;
    }

    @Override
    public synchronized void close() {
        try {
            out.close();
        } catch (IOException e) {
            log.atWarn().setMessage("cannot close the audit log").addKeyValue("file", file.toString()).log();
        }
    }
}
