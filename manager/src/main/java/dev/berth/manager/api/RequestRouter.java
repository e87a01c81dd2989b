package dev.berth.manager.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.manager.schema.SchemaCatalog;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Turns one resolved request into a service call: picks the verb, the patch type, the dry-run view
 * and the field manager, and renders lists and objects as Tables when asked. Runs on the state thread (a plain
 * read through a read-only service of its own may run on a read thread: ApiServer#readingFromTheStore).
 */
final class RequestRouter {
    static final String MERGE_PATCH = "application/merge-patch+json";
    static final String STRATEGIC_MERGE_PATCH = "application/strategic-merge-patch+json";
    static final String JSON_PATCH = "application/json-patch+json";
    static final String APPLY_PATCH = "application/apply-patch+yaml";

    private final ObjectService service;
    private final Clock clock;
    private final FieldValidation.Check fields = new FieldValidation.Check(SchemaCatalog::bundled);

    RequestRouter(ObjectService service, Clock clock) {
        this.service = service;
        this.clock = clock;
    }

    ApiReply answer(ApiRequest request, ApiRoute route) {
        return answer(request, route, patched -> { });
    }

    /**
     * As above; checkPatched sees the object a patch (of any type, status included) results in, before
     * anything is stored, and refuses it by throwing (object limits, priority-class use).
     */
    ApiReply answer(ApiRequest request, ApiRoute route, Consumer<ObjectNode> checkPatched) {
        List<String> unknownFields = new ArrayList<>();
        return answer(request, route, checkPatched, unknownFields).warnedFirst(unknownFields);
    }

    /** unknownFields collects the warnings of fieldValidation=Warn, sent before the write's own. */
    private ApiReply answer(ApiRequest request, ApiRoute route, Consumer<ObjectNode> checkPatched, List<String> unknownFields) {
        ResourcePath path = route.path();
        String method = request.method();
        ObjectService target = request.dryRun() ? service.dryRun() : service;
        if (route.collection()) {
            if (method.equals("GET")) {
                return read(request, path, service.list(path, ListOptions.of(request)));
            }
            if (method.equals("POST") && path.namespace() != null) return create(target, request, path, known(request, path, single(request), null, unknownFields));
        } else if (route.scale()) {
            return scale(target, request, path, checkPatched);
        } else if (route.status()) {
            if (method.equals("GET")) return read(request, path, service.getStatus(path));
            if (method.equals("PUT")) return ApiReply.ok(200, target.replaceStatus(path, known(request, path, single(request), stored(path), unknownFields)));
            if (method.equals("PATCH")) {
                ObjectNode patched = known(request, path, patched(request, path, false), service.patchTarget(path), unknownFields);
                return ApiReply.ok(200, target.replaceStatus(path, checked(checkPatched, patched)));
            }
        } else {
            if (method.equals("GET")) return read(request, path, service.get(path));
            if (method.equals("PUT")) return replace(target, request, path, known(request, path, single(request), stored(path), unknownFields));
            if (method.equals("PATCH")) {
                if (isApply(request) && !service.exists(path)) return applyCreate(target, request, path, unknownFields);
                ObjectNode patched = known(request, path, patched(request, path, true), service.patchTarget(path), unknownFields);
                return replace(target, request, path, checked(checkPatched, patched));
            }
            if (method.equals("DELETE")) return ApiReply.ok(200, service.delete(path, DeleteOptions.of(request)));
        }
        throw ApiException.methodNotAllowed(method);
    }

    /** The scale subresource: read as a Scale, written by replacing the object's spec.replicas. */
    private ApiReply scale(ObjectService target, ApiRequest request, ResourcePath path, Consumer<ObjectNode> checkPatched) {
        String method = request.method();
        ObjectNode current = service.patchTarget(path);
        if (method.equals("GET")) return ApiReply.ok(200, ScaleSubresource.of(service.get(path)));
        ObjectNode written;
        if (method.equals("PUT")) {
            written = single(request);
        } else if (method.equals("PATCH")) {
            String type = ManifestReader.mediaType(request.contentType());
            JsonNode result = switch (type) {
                case MERGE_PATCH, STRATEGIC_MERGE_PATCH -> JsonMergePatch.apply(ScaleSubresource.of(current), patchBody(request));
                case JSON_PATCH -> JsonPatch.apply(ScaleSubresource.of(current), ManifestReader.readAny(request.body()));
                default -> throw ApiException.unsupportedMediaType(request.contentType());
            };
            if (!(result instanceof ObjectNode object)) throw ApiException.badRequest("the patched object must be a JSON object");
            written = object;
        } else {
            throw ApiException.methodNotAllowed(method);
        }
        ObjectNode scaled = checked(checkPatched, ScaleSubresource.scaled(current, written));
        Outcome outcome = target.replace(path, scaled);
        return ApiReply.ok(200, new Outcome(ScaleSubresource.of(outcome.object()), outcome.warnings()));
    }

    private static ObjectNode checked(Consumer<ObjectNode> check, ObjectNode patched) {
        check.accept(patched);
        return patched;
    }

    /** The body pruned of the fields its schema does not know (baseline: what a patch started from), per fieldValidation. */
    private ObjectNode known(ApiRequest request, ResourcePath path, ObjectNode body, JsonNode baseline, List<String> warnings) {
        warnings.addAll(fields.apply(request, path, body, baseline));
        return body;
    }

    /** The stored object a replace starts from, if any: what it already holds is not the request's to answer for. */
    private JsonNode stored(ResourcePath path) {
        return service.exists(path) ? service.patchTarget(path) : null;
    }

    private ApiReply read(ApiRequest request, ResourcePath path, ObjectNode body) {
        if (!request.wantsTable()) return ApiReply.ok(200, body);
        return ApiReply.ok(200, TablePrinter.table(path.type(), body, request.param("includeObject"), clock.instant()));
    }

    private ApiReply create(ObjectService target, ApiRequest request, ResourcePath collection, ObjectNode body) {
        FieldOwnership.recordUpdate(null, body, request.param("fieldManager"), clock.instant());
        return ApiReply.ok(201, target.create(collection, body));
    }

    private ApiReply replace(ObjectService target, ApiRequest request, ResourcePath path, ObjectNode body) {
        if (!isApply(request)) {
            ObjectNode before = service.forPatch(path);
            FieldOwnership.recordUpdate(before, body, request.param("fieldManager"), clock.instant());
        }
        return ApiReply.ok(200, target.replace(path, body));
    }

    private ApiReply applyCreate(ObjectService target, ApiRequest request, ResourcePath path, List<String> unknownFields) {
        ObjectNode configuration = known(request, path, patchBody(request), null, unknownFields);
        ObjectNode applied = FieldOwnership.apply(null, configuration, request.param("fieldManager"), true, clock.instant());
        ObjectNode metadata = applied.with("metadata");
        if (!metadata.has("name")) metadata.put("name", path.name());
        return ApiReply.ok(201, target.create(ResourcePath.collection(path.type(), path.version(), path.namespace()), applied));
    }

    /** The object after the request's patch, from the stored object (whole, or for status only its status counts). */
    private ObjectNode patched(ApiRequest request, ResourcePath path, boolean wholeObject) {
        String type = ManifestReader.mediaType(request.contentType());
        if (!List.of(MERGE_PATCH, STRATEGIC_MERGE_PATCH, JSON_PATCH, APPLY_PATCH).contains(type)) {
            throw ApiException.unsupportedMediaType(request.contentType());
        }
        PatchShape shape = type.equals(STRATEGIC_MERGE_PATCH)
                ? BuiltInPatchShapes.of(path.type()).orElseThrow(StrategicMergePatch::unsupportedForCustomResources) : null;
        ObjectNode current = service.patchTarget(path);
        JsonNode result = switch (type) {
            case MERGE_PATCH -> JsonMergePatch.apply(current, patchBody(request));
            case STRATEGIC_MERGE_PATCH -> StrategicMergePatch.apply(current, patchBody(request), shape);
            case JSON_PATCH -> JsonPatch.apply(current, ManifestReader.readAny(request.body()));
            case APPLY_PATCH -> {
                if (!wholeObject) throw ApiException.unsupportedMediaType(request.contentType());
                ObjectNode applied = patchBody(request);
                yield FieldOwnership.apply(current, applied, request.param("fieldManager"), request.flag("force"), clock.instant());
            }
            default -> throw ApiException.unsupportedMediaType(request.contentType());
        };
        if (!(result instanceof ObjectNode object)) throw ApiException.badRequest("the patched object must be a JSON object");
        return object;
    }

    private static boolean isApply(ApiRequest request) {
        return request.method().equals("PATCH") && ManifestReader.mediaType(request.contentType()).equals(APPLY_PATCH);
    }

    /** The merge patch or apply configuration; an apply configuration's nulls mean "not set" (the field is given up). */
    private static ObjectNode patchBody(ApiRequest request) {
        String contentType = isApply(request) ? "application/yaml" : "application/json";
        List<ObjectNode> documents = ManifestReader.read(request.body(), contentType);
        if (documents.size() != 1) throw ApiException.badRequest("a patch must hold exactly one object, not " + documents.size());
        return isApply(request) ? JsonMergePatch.withoutNulls(documents.get(0)) : documents.get(0);
    }

    private static ObjectNode single(ApiRequest request) {
        String contentType = request.contentType();
        if (!ManifestReader.isJson(contentType) && !ManifestReader.isYaml(contentType)) {
            throw ApiException.unsupportedMediaType(contentType);
        }
        List<ObjectNode> documents = ManifestReader.read(request.body(), contentType);
        if (documents.size() != 1) throw ApiException.badRequest("the request body must hold exactly one object, not " + documents.size());
        return documents.get(0);
    }
}
