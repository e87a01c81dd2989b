"""The no-data-loss invariant for the Python client suites (the same rule as clients/node/stored_invariant.mjs).

After a command, a plain GET of the object must hold everything the command promised: `expected` is
built by the caller independently of the server (the submitted object with the patch applied by
hand). Dicts match as a subset (the server adds uid, resourceVersion, status, defaults), lists item by
item with the same length, ABSENT means "no such key", and nothing stored may carry a
strategic-merge directive key ($setElementOrder/..., $patch).
"""
import copy
import json
import urllib.error
import urllib.request

ABSENT = object()


def plain_get(configuration, path):
    """(status, body) of GET path, with the configuration's host and bearer token if it has one."""
    request = urllib.request.Request(configuration.host + path)
    token = (configuration.api_key or {}).get("authorization")
    if token:
        request.add_header("Authorization", token)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


def differences(expected, actual, path=""):
    if expected is ABSENT:
        return [] if actual is ABSENT else ["%s: expected absent, stored %s" % (path, json.dumps(actual))]
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return ["%s: expected %s, stored %s" % (path, json.dumps(expected), json.dumps(_plain(actual)))]
        return [d for i, item in enumerate(expected) for d in differences(item, actual[i], "%s[%d]" % (path, i))]
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return ["%s: expected %s, stored %s" % (path, json.dumps(_plain(expected)), json.dumps(_plain(actual)))]
        return [d for key, value in expected.items() for d in differences(value, actual.get(key, ABSENT), "%s.%s" % (path, key))]
    if actual is ABSENT or str(expected) != str(actual):
        return ["%s: expected %s, stored %s" % (path, json.dumps(expected), json.dumps(_plain(actual)))]
    return []


def _plain(value):
    return None if value is ABSENT else value


def _directive_keys(value, path=""):
    if isinstance(value, list):
        return [d for i, item in enumerate(value) for d in _directive_keys(item, "%s[%d]" % (path, i))]
    if not isinstance(value, dict):
        return []
    found = ["%s.%s: a patch directive was stored" % (path, k) for k in value if k.startswith("$")]
    return found + [d for k, v in value.items() for d in _directive_keys(v, "%s.%s" % (path, k))]


def expect_stored(configuration, path, expected):
    """Reads path back; raises AssertionError with a diff unless it holds expected (or is gone, for ABSENT)."""
    status, body = plain_get(configuration, path)
    if expected is ABSENT:
        assert status == 404, "no-data-loss: %s should be gone, GET answered %d" % (path, status)
        return body
    assert status == 200, "no-data-loss: GET %s answered %d: %s" % (path, status, body)
    diff = differences(expected, body) + _directive_keys(body)
    assert not diff, "no-data-loss: %s differs from what the command promised:\n  %s" % (path, "\n  ".join(diff))
    return body


def merge_patched(target, patch):
    """RFC 7386 applied by hand: what a JSON merge patch promises."""
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    result = copy.deepcopy(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        else:
            result[key] = merge_patched(result.get(key), value)
    return result
