"""Debian's python3-kubernetes against a Berth manager, each command followed by the no-data-loss check.

Usage: python3 python_client_invariant.py http://127.0.0.1:PORT
Prints "ok <case>" per case or raises. Run by PythonClientInvariantTest.
"""
import copy
import sys

from kubernetes import client
from kubernetes.client.rest import ApiException

from stored_invariant import ABSENT, expect_stored, merge_patched

configuration = client.Configuration()
configuration.host = sys.argv[1]
api = client.ApiClient(configuration)
custom = client.CustomObjectsApi(api)
batch = client.BatchV1Api(api)
KUEUE = ("kueue.x-k8s.io", "v1beta2")
LQ_PATH = "/apis/kueue.x-k8s.io/v1beta2/namespaces/team-a/localqueues/"


def local_queue(name, labels):
    return {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "LocalQueue",
            "metadata": {"name": name, "namespace": "team-a", "labels": labels}, "spec": {"clusterQueue": "team-a-cq"}}


def check_local_queue_crud_and_merge_patch():
    submitted = local_queue("py-inv-lq", {"keep": "yes", "drop": "me"})
    custom.create_namespaced_custom_object(*KUEUE, "team-a", "localqueues", submitted)
    expect_stored(configuration, LQ_PATH + "py-inv-lq", submitted)
    patch = {"metadata": {"labels": {"drop": None, "added": "x"}}, "spec": {"stopPolicy": "Hold"}}
    custom.patch_namespaced_custom_object(*KUEUE, "team-a", "localqueues", "py-inv-lq", patch)
    expected = merge_patched(submitted, patch)
    expected["metadata"]["labels"]["drop"] = ABSENT
    expect_stored(configuration, LQ_PATH + "py-inv-lq", expected)
    custom.delete_namespaced_custom_object(*KUEUE, "team-a", "localqueues", "py-inv-lq")
    expect_stored(configuration, LQ_PATH + "py-inv-lq", ABSENT)
    print("ok localqueue-crud-merge-patch")


def check_json_patch():
    submitted = local_queue("py-json-lq", {"a": "1"})
    custom.create_namespaced_custom_object(*KUEUE, "team-a", "localqueues", submitted)
    ops = [{"op": "add", "path": "/metadata/labels/b", "value": "2"}, {"op": "remove", "path": "/metadata/labels/a"}]
    # CustomObjectsApi sends every patch as a merge patch: a JSON patch goes through the ApiClient itself
    api.call_api(LQ_PATH + "py-json-lq", "PATCH", header_params={"Content-Type": "application/json-patch+json",
                 "Accept": "application/json"}, body=ops, response_type="object", auth_settings=["BearerToken"])
    expect_stored(configuration, LQ_PATH + "py-json-lq",
                  {"metadata": {"labels": {"a": ABSENT, "b": "2"}}, "spec": submitted["spec"]})
    print("ok json-patch")


def check_job_merge_patch_and_dry_run():
    job = {"apiVersion": "batch/v1", "kind": "Job",
           "metadata": {"name": "py-inv-job", "namespace": "team-a", "labels": {"kueue.x-k8s.io/queue-name": "team-a-queue"}},
           "spec": {"suspend": True, "template": {"spec": {"restartPolicy": "Never", "containers": [
               {"name": "main", "image": "busybox:1.36", "resources": {"requests": {"cpu": "1"}}}]}}}}
    path = "/apis/batch/v1/namespaces/team-a/jobs/py-inv-job"
    batch.create_namespaced_job("team-a", job)
    # A queued Job's spec.suspend is Kueue's to set: true while it waits, false once admitted. What the
    # command promised is everything else.
    promised = copy.deepcopy(job)
    del promised["spec"]["suspend"]
    expect_stored(configuration, path, promised)
    patch = {"metadata": {"labels": {"owner": "python"}}}
    batch.patch_namespaced_job("py-inv-job", "team-a", patch)  # python3-kubernetes sends a dict as a merge patch
    expected = merge_patched(promised, patch)
    expect_stored(configuration, path, expected)
    batch.patch_namespaced_job("py-inv-job", "team-a", {"metadata": {"labels": {"owner": "dry"}}}, dry_run="All")
    expect_stored(configuration, path, expected)
    batch.delete_namespaced_job("py-inv-job", "team-a", dry_run="All")
    expect_stored(configuration, path, expected)
    batch.delete_namespaced_job("py-inv-job", "team-a", propagation_policy="Background")
    expect_stored(configuration, path, ABSENT)
    print("ok job-merge-patch-dry-run")


def check_refused_write_stores_nothing():
    submitted = local_queue("py-refused-lq", {"k": "v"})
    custom.create_namespaced_custom_object(*KUEUE, "team-a", "localqueues", submitted)
    try:
        custom.patch_namespaced_custom_object(*KUEUE, "team-a", "localqueues", "py-refused-lq",
                                              {"metadata": {"labels": {"k": 5}}})
        raise AssertionError("a label that is not a string was accepted")
    except ApiException as e:
        assert e.status in (400, 422), e
    expect_stored(configuration, LQ_PATH + "py-refused-lq", copy.deepcopy(submitted))
    print("ok refused-write-stores-nothing")


check_local_queue_crud_and_merge_patch()
check_json_patch()
check_job_merge_patch_and_dry_run()
check_refused_write_stores_nothing()
