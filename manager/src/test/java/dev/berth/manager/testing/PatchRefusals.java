package dev.berth.manager.testing;

import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.Resetable;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.zjsonpatch.JsonPatchException;

/**
 * fabric8's CRUD mock throws on a JSON Patch it cannot apply (a {@code test} that does not hold) and never answers,
 * so the client waits out its timeout; kube-apiserver answers 422 at once. This wraps a CRUD dispatcher to answer as
 * kube-apiserver does, so the manager's conditional patches of RemoteWorkloads meet a realistic API server.
 */
public final class PatchRefusals extends Dispatcher implements Resetable {
    private final KubernetesCrudDispatcher crud;

    private PatchRefusals(KubernetesCrudDispatcher crud) {
        this.crud = crud;
    }

    public static Dispatcher answered(KubernetesCrudDispatcher crud) {
        return new PatchRefusals(crud);
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        try {
            return crud.dispatch(request);
        } catch (JsonPatchException notApplied) {
            String message = String.valueOf(notApplied.getMessage()).replace("\\", "\\\\").replace("\"", "\\\"");
            return new MockResponse().setResponseCode(422).setHeader("Content-Type", "application/json")
                    .setBody("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":\"Invalid\",\"code\":422,"
                            + "\"message\":\"" + message + "\"}");
        }
    }

    @Override
    public void shutdown() {
        crud.shutdown();
    }

    @Override
    public void releaseResources() {
        crud.releaseResources();
    }

    @Override
    public void reset() {
        crud.reset();
    }
}
