"""Debian's python3-kubernetes against a Berth manager: each check prints "ok <name>" or raises.

Usage: python3 python_client_check.py http://127.0.0.1:PORT
"""
import sys

from kubernetes import client
from kubernetes.client.rest import ApiException

configuration = client.Configuration()
configuration.host = sys.argv[1]
api = client.ApiClient(configuration)


def check_version():
    info = client.VersionApi(api).get_code()
    assert info.major == "1" and info.platform and info.go_version and info.build_date, info
    print("ok version", info.git_version)


def job(name):
    # no kind and no apiVersion: V1Job leaves them out unless set, as many scripts do
    container = client.V1Container(name="main", image="busybox",
                                   resources=client.V1ResourceRequirements(requests={"cpu": "1"}))
    return client.V1Job(
        metadata=client.V1ObjectMeta(name=name, labels={"kueue.x-k8s.io/queue-name": "team-a-queue"}),
        spec=client.V1JobSpec(template=client.V1PodTemplateSpec(
            spec=client.V1PodSpec(containers=[container], restart_policy="Never"))))


def workloads_owned_by(uid):
    custom = client.CustomObjectsApi(api)
    items = custom.list_namespaced_custom_object("kueue.x-k8s.io", "v1beta2", "team-a", "workloads")["items"]
    return [w["metadata"]["name"] for w in items
            if any(o.get("uid") == uid for o in w["metadata"].get("ownerReferences", []))]


def check_job_without_kind_then_dry_run_and_orphan():
    batch = client.BatchV1Api(api)
    created = batch.create_namespaced_job("team-a", job("py-job"))
    uid = created.metadata.uid
    owned = workloads_owned_by(uid)
    assert len(owned) == 1, owned
    batch.delete_namespaced_job("py-job", "team-a", dry_run="All")
    assert batch.read_namespaced_job("py-job", "team-a").metadata.uid == uid
    try:
        batch.delete_namespaced_job("py-job", "team-a", body=client.V1DeleteOptions(
            preconditions=client.V1Preconditions(uid="not-" + uid)))
        raise AssertionError("a delete with a wrong uid precondition succeeded")
    except ApiException as e:
        assert e.status == 409, e
    batch.delete_namespaced_job("py-job", "team-a", propagation_policy="Orphan")
    custom = client.CustomObjectsApi(api)
    kept = custom.get_namespaced_custom_object("kueue.x-k8s.io", "v1beta2", "team-a", "workloads", owned[0])
    assert not kept["metadata"].get("ownerReferences"), kept["metadata"]
    custom.delete_namespaced_custom_object("kueue.x-k8s.io", "v1beta2", "team-a", "workloads", owned[0])
    print("ok job-dry-run-precondition-orphan")


def check_label_removed_with_none():
    core = client.CoreV1Api(api)
    core.patch_namespace("team-a", {"metadata": {"labels": {"py": "yes"}}})
    core.patch_namespace("team-a", {"metadata": {"labels": {"py": None}}})
    labels = core.read_namespace("team-a").metadata.labels or {}
    assert "py" not in labels, labels
    print("ok label-removed")


check_version()
check_job_without_kind_then_dry_run_and_orphan()
check_label_removed_with_none()
