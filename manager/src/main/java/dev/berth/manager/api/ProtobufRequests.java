package dev.berth.manager.api;

import java.nio.charset.StandardCharsets;

/**
 * Turns a create or replace whose body is {@code application/vnd.kubernetes.protobuf} (what kubectl's typed
 * generators and client-go send for built-in kinds) into the same request with the JSON body a JSON client
 * would send, so validation, fieldValidation, dry-run and audit see no difference. Answers stay JSON.
 */
final class ProtobufRequests {
    private ProtobufRequests() {}

    static ApiRequest asJson(ApiRequest request) {
        if (!KubernetesProtobuf.isProtobuf(request.contentType())) return request;
        if (!request.method().equals("POST") && !request.method().equals("PUT")) return request;
        byte[] json = KubernetesProtobuf.decode(request.body()).toString().getBytes(StandardCharsets.UTF_8);
        return new ApiRequest(request.method(), request.path(), "application/json", request.accept(), request.query(), json);
    }
}
