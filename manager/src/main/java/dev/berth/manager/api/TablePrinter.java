package dev.berth.manager.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.List;

/**
 * Server-side printing: an object or a list rendered as a {@code meta.k8s.io/v1} Table, which is
 * what kubectl asks for ({@code Accept: application/json;as=Table;v=v1;g=meta.k8s.io}) and prints
 * as is. Each row carries the object as PartialObjectMetadata (kubectl reads the namespace from it),
 * the whole object with {@code includeObject=Object}, or nothing with {@code includeObject=None}.
 */
final class TablePrinter {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private TablePrinter() {}

    static ObjectNode table(ResourceType type, JsonNode listOrObject, String includeObject, Instant now) {
        List<TableColumns.Column> columns = TableColumns.of(type.group(), type.kind());
        ObjectNode table = NODES.objectNode().put("kind", "Table").put("apiVersion", "meta.k8s.io/v1");
        ObjectNode metadata = table.putObject("metadata");
        String resourceVersion = listOrObject.path("metadata").path("resourceVersion").asText("");
        if (!resourceVersion.isEmpty()) metadata.put("resourceVersion", resourceVersion);
        JsonNode continueToken = listOrObject.path("metadata").get("continue");
        if (continueToken != null) metadata.set("continue", continueToken);
        JsonNode remaining = listOrObject.path("metadata").get("remainingItemCount");
        if (remaining != null) metadata.set("remainingItemCount", remaining);
        ArrayNode definitions = table.putArray("columnDefinitions");
        for (TableColumns.Column column : columns) {
            definitions.addObject().put("name", column.name()).put("type", column.type()).put("format", column.format())
                    .put("description", column.description()).put("priority", column.priority());
        }
        ArrayNode rows = table.putArray("rows");
        if (listOrObject.has("items")) {
            for (JsonNode item : listOrObject.path("items")) rows.add(row(columns, item, includeObject, now));
        } else {
            rows.add(row(columns, listOrObject, includeObject, now));
        }
        return table;
    }

    private static ObjectNode row(List<TableColumns.Column> columns, JsonNode object, String includeObject, Instant now) {
        ObjectNode row = NODES.objectNode();
        ArrayNode cells = row.putArray("cells");
        for (TableColumns.Column column : columns) {
            Object cell = column.cell().apply(object, now);
            if (cell == null) cells.addNull();
            else if (cell instanceof Long number) cells.add(number);
            else cells.add(cell.toString());
        }
        if ("Object".equals(includeObject)) {
            row.set("object", object.deepCopy());
        } else if (!"None".equals(includeObject)) {
            ObjectNode partial = row.putObject("object").put("kind", "PartialObjectMetadata").put("apiVersion", "meta.k8s.io/v1");
            partial.set("metadata", object.path("metadata").deepCopy());
        }
        return row;
    }
}
