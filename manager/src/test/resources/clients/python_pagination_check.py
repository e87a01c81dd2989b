"""Debian's python3-kubernetes pages lists against a Berth manager: each check prints "ok <name>" or raises.

Usage: python3 python_pagination_check.py http://127.0.0.1:PORT
"""
import base64
import json
import sys

from kubernetes import client
from kubernetes.client.rest import ApiException

configuration = client.Configuration()
configuration.host = sys.argv[1]
api = client.ApiClient(configuration)
custom = client.CustomObjectsApi(api)
GROUP, VERSION, FLAVORS = "kueue.x-k8s.io", "v1beta2", "resourceflavors"
SELECTOR = "berth.dev/page-check=yes"


def flavor(name):
    return {"apiVersion": GROUP + "/" + VERSION, "kind": "ResourceFlavor",
            "metadata": {"name": name, "labels": {"berth.dev/page-check": "yes"}}, "spec": {}}


def check_custom_objects_pages_are_consistent():
    for i in range(1, 6):
        custom.create_cluster_custom_object(GROUP, VERSION, FLAVORS, flavor("pf-%d" % i))
    first = custom.list_cluster_custom_object(GROUP, VERSION, FLAVORS, label_selector=SELECTOR, limit=2)
    seen = [f["metadata"]["name"] for f in first["items"]]
    token = first["metadata"].get("continue")
    assert token and len(seen) == 2, first["metadata"]
    custom.delete_cluster_custom_object(GROUP, VERSION, FLAVORS, "pf-5")
    custom.create_cluster_custom_object(GROUP, VERSION, FLAVORS, flavor("pf-4a"))
    while token:
        page = custom.list_cluster_custom_object(GROUP, VERSION, FLAVORS, label_selector=SELECTOR, limit=2, _continue=token)
        assert page["metadata"]["resourceVersion"] == first["metadata"]["resourceVersion"], page["metadata"]
        seen += [f["metadata"]["name"] for f in page["items"]]
        token = page["metadata"].get("continue")
    assert seen == ["pf-1", "pf-2", "pf-3", "pf-4", "pf-5"], seen
    print("ok custom-objects-pages")


def check_typed_pages_carry_continue_and_remaining_count():
    core = client.CoreV1Api(api)
    first = core.list_namespace(limit=1)
    assert first.metadata._continue and first.metadata.remaining_item_count >= 1, first.metadata
    names = [n.metadata.name for n in first.items]
    token = first.metadata._continue
    while token:
        page = core.list_namespace(limit=1, _continue=token)
        names += [n.metadata.name for n in page.items]
        token = page.metadata._continue
    everything = [n.metadata.name for n in core.list_namespace().items]
    assert names == everything, (names, everything)
    print("ok typed-pages")


def check_stale_and_garbage_tokens():
    stale = base64.urlsafe_b64encode(json.dumps(
        {"v": "meta.k8s.io/v1", "rv": 1, "start": "/pf-1", "snapshot": "gone"}).encode()).decode().rstrip("=")
    try:
        custom.list_cluster_custom_object(GROUP, VERSION, FLAVORS, limit=2, _continue=stale)
        raise AssertionError("a stale token was accepted")
    except ApiException as e:
        assert e.status == 410 and json.loads(e.body)["reason"] == "Expired", e.body
    try:
        custom.list_cluster_custom_object(GROUP, VERSION, FLAVORS, limit=2, _continue="not a token")
        raise AssertionError("a garbage token was accepted")
    except ApiException as e:
        assert e.status == 400, e.body
    print("ok stale-and-garbage-tokens")


check_custom_objects_pages_are_consistent()
check_typed_pages_carry_continue_and_remaining_count()
check_stale_and_garbage_tokens()
