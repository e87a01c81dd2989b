#!/usr/bin/env python3
"""Writes swagger-v1.32-subset.json (gzip it with `gzip -9n`): the definitions of Kubernetes' swagger.json
that the built-in kinds Berth serves reach through $ref, in the upstream file's order, with the
upstream's "swagger" and "info" and nothing else (no paths, parameters or security).

Upstream: api/openapi-spec/swagger.json of Kubernetes release-1.32, as shipped in kubernetes-client/python
v32.0.1 (commit bc4fd671bfa702007e090ae3ae28bf28bc9c3a6e) at kubernetes/swagger.json.unprocessed.
Apache-2.0, Copyright The Kubernetes Authors.

Usage: subset.py <swagger.json> | gzip -9n > swagger-v1.32-subset.json.gz
"""
import json, sys

ROOTS = [
    "io.k8s.api.batch.v1.Job", "io.k8s.api.core.v1.Pod", "io.k8s.api.core.v1.Namespace", "io.k8s.api.core.v1.Secret",
    "io.k8s.api.core.v1.Event", "io.k8s.api.scheduling.v1.PriorityClass",
    "io.k8s.api.rbac.v1.Role", "io.k8s.api.rbac.v1.RoleBinding", "io.k8s.api.rbac.v1.ClusterRole", "io.k8s.api.rbac.v1.ClusterRoleBinding",
    "io.k8s.api.apps.v1.Deployment", "io.k8s.api.apps.v1.StatefulSet",
    "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta", "io.k8s.apimachinery.pkg.apis.meta.v1.Status",
    "io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions", "io.k8s.apimachinery.pkg.apis.meta.v1.Patch",
]
PREFIX = "#/definitions/"


def refs(node):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str) and value.startswith(PREFIX):
                yield value[len(PREFIX):]
            else:
                yield from refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from refs(value)


def reachable(definitions, roots):
    seen, pending = set(), list(roots)
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        if name not in definitions:
            sys.exit("no definition " + name)
        seen.add(name)
        pending.extend(refs(definitions[name]))
    return seen


with open(sys.argv[1], encoding="utf-8") as source:
    swagger = json.load(source)
keep = reachable(swagger["definitions"], ROOTS)
subset = {"swagger": swagger["swagger"], "info": swagger["info"],
          "definitions": {name: value for name, value in swagger["definitions"].items() if name in keep}}
json.dump(subset, sys.stdout, separators=(",", ":"))
