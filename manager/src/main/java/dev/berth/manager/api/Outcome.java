package dev.berth.manager.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/** The result of a write: the object as stored (shaped for the request's version) and any warnings for the client. */
public record Outcome(ObjectNode object, List<String> warnings) {
    public Outcome {
        warnings = List.copyOf(warnings);
    }
}
