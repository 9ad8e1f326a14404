"""A real `companion serve` killed with SIGKILL keeps every acknowledged event."""

import json
import urllib.request

import pytest


def call(url, method="GET", body=None, token=None):
    req = urllib.request.Request(url, method=method, data=None if body is None else json.dumps(body).encode())
    req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("X-Table-Token", token)
    with urllib.request.urlopen(req, timeout=10) as response:
        return response.status, json.loads(response.read())


@pytest.mark.slow
def test_acknowledged_events_survive_sigkill_and_restart(server):
    status, t = call(server.url + "/api/v1/tables", "POST", {"game": "gutenberg", "players": ["Anna", "Tom"]})
    assert status == 201
    acknowledged = []
    for i in range(25):
        status, answer = call(f"{server.url}/api/v1/tables/{t['table']}/events", "POST",
                              {"type": "rename", "data": {"player": i % 2, "name": f"N{i}"}, "expected_version": i}, t["token"])
        assert status == 200
        acknowledged.append(answer["version"])
    server.kill()
    server.start()
    status, log = call(f"{server.url}/api/v1/tables/{t['table']}/events", token=t["token"])
    assert [e["seq"] for e in log] == acknowledged == list(range(1, 26))
    status, doc = call(f"{server.url}/api/v1/tables/{t['table']}", token=t["token"])
    assert doc["version"] == 25 and doc["players"] == [{"name": "N24"}, {"name": "N23"}]
